-- Hibernate Search's outbox-polling coordination (issue 36 item 2, decision 0020): a write that changes an indexed
-- entity records an event in hsearch_outbox_event in the same transaction as the row itself, and every server's
-- event processor (one shard per server, the shards assigned through hsearch_agent) turns the events of its shard
-- into index writes. Used when memory.search.coordination=outbox-polling (several servers on one database, or
-- writes that must succeed while OpenSearch is down); empty otherwise. The columns are those Hibernate Search 7.2
-- maps (validated at start-up like every other table); the index names are ours.

CREATE TABLE hsearch_agent (
    assignedshardindex INTEGER,
    totalshardcount    INTEGER,
    expiration         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    id                 UUID                        NOT NULL,
    name               VARCHAR(255)                NOT NULL,
    state              VARCHAR(255)                NOT NULL CHECK (state IN ('RUNNING', 'WAITING', 'SUSPENDED')),
    tenantid           VARCHAR(255),
    type               VARCHAR(255)                NOT NULL CHECK (type IN ('EVENT_PROCESSING_DYNAMIC_SHARDING',
                                                                            'EVENT_PROCESSING_STATIC_SHARDING',
                                                                            'MASS_INDEXING')),
    payload            BYTEA,
    PRIMARY KEY (id)
);

CREATE TABLE hsearch_outbox_event (
    entityidhash INTEGER                     NOT NULL,
    retries      INTEGER                     NOT NULL,
    processafter TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    id           UUID                        NOT NULL,
    entityid     VARCHAR(256)                NOT NULL,
    entityname   VARCHAR(256)                NOT NULL,
    status       VARCHAR(255)                NOT NULL CHECK (status IN ('PENDING', 'ABORTED')),
    tenantid     VARCHAR(255),
    payload      BYTEA                       NOT NULL,
    PRIMARY KEY (id)
);

CREATE INDEX hsearch_outbox_event_hash ON hsearch_outbox_event (entityidhash);
CREATE INDEX hsearch_outbox_event_status ON hsearch_outbox_event (status);
CREATE INDEX hsearch_outbox_event_after ON hsearch_outbox_event (processafter);
