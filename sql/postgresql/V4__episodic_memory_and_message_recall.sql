-- Episodic memory and conversation recall (issue 5, spec §10).
--
-- Decisions
--  * Ids come from sequences with INCREMENT BY 50 (see V1); an episode's public id is its UUID string.
--  * The embedding is stored with its row (384 little-endian IEEE-754 floats = 1,536 bytes for
--    all-MiniLM-L6-v2) together with the model's name, so the search index can be rebuilt from the database
--    alone, without running the model. The search index (Hibernate Search, Lucene by default) is derived data.
--  * content_key is the SHA-256 of the namespace and the recorded content: identical content recorded twice
--    in one namespace is stored once (the first importance is kept).
--  * turn_message holds each user message and each assistant response of a stored turn as its own searchable
--    row (written in the turn's transaction); deleting a conversation or a turn cascades to it.
--  * Every table carries tenant_id.

CREATE SEQUENCE episode_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE turn_message_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE episode (
    id               BIGINT                      NOT NULL,
    episode_id       VARCHAR(36)                 NOT NULL,
    tenant_id        VARCHAR(64)                 NOT NULL,
    agent_id         VARCHAR(512)                NOT NULL,
    user_id          VARCHAR(512),
    session_id       VARCHAR(512),
    room_id          VARCHAR(512),
    crew_id          VARCHAR(512),
    created_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    expires_at       TIMESTAMP(6) WITH TIME ZONE,
    situation        TEXT                        NOT NULL,
    action_taken     TEXT                        NOT NULL,
    outcome          VARCHAR(16)                 NOT NULL,
    outcome_details  TEXT,
    error_type       VARCHAR(128),
    error_message    TEXT,
    reflection       TEXT,
    lesson_learned   TEXT,
    suggested_action TEXT,
    lesson_source    VARCHAR(16),
    category         VARCHAR(32)                 NOT NULL,
    importance       INTEGER                     NOT NULL,
    is_failure       BOOLEAN                     NOT NULL,
    related_tools    TEXT                        NOT NULL,
    related_entities TEXT                        NOT NULL,
    metadata         TEXT                        NOT NULL,
    content_key      VARCHAR(64)                 NOT NULL,
    embedding        BYTEA,
    embedding_model  VARCHAR(64),
    CONSTRAINT pk_episode PRIMARY KEY (id),
    CONSTRAINT uk_episode_id UNIQUE (episode_id),
    CONSTRAINT uk_episode_content UNIQUE (tenant_id, content_key),
    CONSTRAINT ck_episode_importance CHECK (importance BETWEEN 1 AND 10)
);
-- recent episodes of a namespace (get_recent, preferences, room context, export, compaction)
CREATE INDEX ix_episode_agent ON episode (tenant_id, agent_id, created_at);
CREATE INDEX ix_episode_user ON episode (tenant_id, agent_id, user_id, created_at);
CREATE INDEX ix_episode_room ON episode (tenant_id, agent_id, room_id, created_at);
-- recent failures of an agent or a user (warnings)
CREATE INDEX ix_episode_failures ON episode (tenant_id, agent_id, is_failure, created_at);
-- the expiry timer
CREATE INDEX ix_episode_expires ON episode (expires_at);

CREATE TABLE turn_message (
    id              BIGINT                      NOT NULL,
    tenant_id       VARCHAR(64)                 NOT NULL,
    conversation_id BIGINT                      NOT NULL,
    turn_pk         BIGINT                      NOT NULL,
    turn_id         VARCHAR(512)                NOT NULL,
    seq             BIGINT                      NOT NULL,
    role            VARCHAR(16)                 NOT NULL,
    external_id     VARCHAR(512),
    chatbot_key     VARCHAR(512)                NOT NULL,
    user_id         VARCHAR(512)                NOT NULL,
    session_id      VARCHAR(512)                NOT NULL,
    author          VARCHAR(512),
    content         TEXT                        NOT NULL,
    search_text     TEXT                        NOT NULL,
    occurred_at     TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    embedding       BYTEA,
    embedding_model VARCHAR(64),
    CONSTRAINT pk_turn_message PRIMARY KEY (id),
    CONSTRAINT fk_turn_message_conversation FOREIGN KEY (conversation_id) REFERENCES conversation (id) ON DELETE CASCADE,
    CONSTRAINT fk_turn_message_turn FOREIGN KEY (turn_pk) REFERENCES turn (id) ON DELETE CASCADE,
    CONSTRAINT uk_turn_message_role UNIQUE (turn_pk, role)
);
CREATE INDEX ix_turn_message_conversation ON turn_message (conversation_id, id);
