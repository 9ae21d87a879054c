-- Omission store (issue 3, spec §7): tool outputs kept out of prompts, content-addressed
-- ('om_' + 16 hex digits of BLAKE2b-64), scoped by conversation (the spec's session key), with a per-turn
-- index in insertion order. Deleting a conversation cascades; clearing it deletes explicitly.

CREATE SEQUENCE omission_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE omission_turn_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE omission (
    id              BIGINT                      NOT NULL,
    tenant_id       VARCHAR(64)                 NOT NULL,
    conversation_id BIGINT                      NOT NULL,
    content_id      VARCHAR(32)                 NOT NULL,
    content         TEXT                        NOT NULL,
    content_chars   INTEGER                     NOT NULL,
    tool_name       VARCHAR(1024),
    created_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    expires_at      TIMESTAMP(6) WITH TIME ZONE,
    CONSTRAINT pk_omission PRIMARY KEY (id),
    CONSTRAINT fk_omission_conversation FOREIGN KEY (conversation_id) REFERENCES conversation (id) ON DELETE CASCADE,
    CONSTRAINT uk_omission_content UNIQUE (conversation_id, content_id)
);
CREATE INDEX ix_omission_expires ON omission (expires_at);

CREATE TABLE omission_turn (
    id              BIGINT       NOT NULL,
    tenant_id       VARCHAR(64)  NOT NULL,
    conversation_id BIGINT       NOT NULL,
    turn_id         VARCHAR(512) NOT NULL,
    content_id      VARCHAR(32)  NOT NULL,
    ordinal         INTEGER      NOT NULL,
    CONSTRAINT pk_omission_turn PRIMARY KEY (id),
    CONSTRAINT fk_omission_turn_conversation FOREIGN KEY (conversation_id) REFERENCES conversation (id) ON DELETE CASCADE,
    CONSTRAINT uk_omission_turn UNIQUE (conversation_id, turn_id, content_id)
);
