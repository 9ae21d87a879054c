-- H2 flavour of sql/postgresql/V12: identical except TEXT -> CHARACTER VARYING.
-- Working memory (issue 35 item 1, seed 003; decision 0015), per (tenant, agent, session).
-- working_session: one header row per session. Every write of the session locks it first (SELECT ... FOR UPDATE),
-- so that two writers never exceed the short-term capacity nor lose an access or a promotion, on any server. It holds
-- the context stack (canonical JSON array of frames, bottom first) and the position the session's next item gets.
-- working_item: one row per item; tier is short_term or long_term, seq the item's position in its session (eviction
-- takes the lowest short-term positions first), context the frame on top of the stack when it was stored (JSON) or
-- NULL, metadata the caller's JSON object. Every query names tenant, agent and session.

CREATE SEQUENCE working_session_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE working_session (
    id            BIGINT                      NOT NULL,
    tenant_id     VARCHAR(64)                 NOT NULL,
    agent_id      VARCHAR(512)                NOT NULL,
    session_id    VARCHAR(512)                NOT NULL,
    context_stack CHARACTER VARYING           NOT NULL,
    next_seq      BIGINT                      NOT NULL,
    created_at    TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at    TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_working_session PRIMARY KEY (id),
    CONSTRAINT uk_working_session UNIQUE (tenant_id, agent_id, session_id)
);

CREATE SEQUENCE working_item_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE working_item (
    id               BIGINT                      NOT NULL,
    tenant_id        VARCHAR(64)                 NOT NULL,
    agent_id         VARCHAR(512)                NOT NULL,
    session_id       VARCHAR(512)                NOT NULL,
    seq              BIGINT                      NOT NULL,
    tier             VARCHAR(16)                 NOT NULL,
    content          CHARACTER VARYING           NOT NULL,
    metadata         CHARACTER VARYING           NOT NULL,
    importance       DOUBLE PRECISION            NOT NULL,
    access_count     BIGINT                      NOT NULL,
    context          CHARACTER VARYING,
    created_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    last_accessed_at TIMESTAMP(6) WITH TIME ZONE,
    promoted_at      TIMESTAMP(6) WITH TIME ZONE,
    CONSTRAINT pk_working_item PRIMARY KEY (id),
    CONSTRAINT uk_working_item_seq UNIQUE (tenant_id, agent_id, session_id, seq),
    CONSTRAINT ck_working_item_tier CHECK (tier IN ('short_term', 'long_term')),
    CONSTRAINT ck_working_item_importance CHECK (importance >= 0 AND importance <= 1)
);
-- a session's tier in position order: eviction (oldest short-term first), recent items, retrieval (newest first)
CREATE INDEX ix_working_item_tier ON working_item (tenant_id, agent_id, session_id, tier, seq);
-- the summary's important long-term items
CREATE INDEX ix_working_item_importance ON working_item (tenant_id, agent_id, session_id, tier, importance);
