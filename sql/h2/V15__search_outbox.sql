-- Hibernate Search's outbox-polling coordination (issue 36 item 2, decision 0020): a write that changes an indexed
-- entity records an event in HSEARCH_OUTBOX_EVENT in the same transaction as the row itself, and every server's
-- event processor turns the events of its shard into index writes. Used when memory.search.coordination=outbox-polling;
-- empty otherwise. The columns are those Hibernate Search 7.2 maps (validated at start-up); the index names are ours.

CREATE TABLE HSEARCH_AGENT (
    ASSIGNEDSHARDINDEX INTEGER,
    TOTALSHARDCOUNT    INTEGER,
    EXPIRATION         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    ID                 UUID                        NOT NULL,
    NAME               VARCHAR(255)                NOT NULL,
    TENANTID           VARCHAR(255),
    PAYLOAD            BLOB,
    STATE              ENUM ('RUNNING', 'SUSPENDED', 'WAITING') NOT NULL,
    TYPE               ENUM ('EVENT_PROCESSING_DYNAMIC_SHARDING', 'EVENT_PROCESSING_STATIC_SHARDING',
                             'MASS_INDEXING') NOT NULL,
    PRIMARY KEY (ID)
);

CREATE TABLE HSEARCH_OUTBOX_EVENT (
    ENTITYIDHASH INTEGER                     NOT NULL,
    RETRIES      INTEGER                     NOT NULL,
    PROCESSAFTER TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    ID           UUID                        NOT NULL,
    ENTITYID     VARCHAR(256)                NOT NULL,
    ENTITYNAME   VARCHAR(256)                NOT NULL,
    TENANTID     VARCHAR(255),
    PAYLOAD      BLOB                        NOT NULL,
    STATUS       ENUM ('ABORTED', 'PENDING') NOT NULL,
    PRIMARY KEY (ID)
);

CREATE INDEX HSEARCH_OUTBOX_EVENT_HASH ON HSEARCH_OUTBOX_EVENT (ENTITYIDHASH);
CREATE INDEX HSEARCH_OUTBOX_EVENT_STATUS ON HSEARCH_OUTBOX_EVENT (STATUS);
CREATE INDEX HSEARCH_OUTBOX_EVENT_AFTER ON HSEARCH_OUTBOX_EVENT (PROCESSAFTER);
