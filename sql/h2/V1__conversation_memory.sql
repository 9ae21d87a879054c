-- H2 flavour of sql/postgresql/V1: identical except TEXT -> CHARACTER VARYING (unbounded in H2 2.x).
-- Conversation memory (issue 2): conversations keyed by (tenant, chatbot, user, session), their turns and
-- the turns' tool invocations. Applied by Flyway at start-up; Hibernate only validates against it.
--
-- Decisions
--  * Ids come from sequences (portable to EclipseLink); INCREMENT BY matches allocationSize = 50 and START
--    WITH 50 makes every value the upper end of its block, which both Hibernate's pooled optimizer and
--    EclipseLink read as the block [value - 49, value].
--  * chatbot_key is '' for the default agent so the unique key needs no NULL semantics.
--  * Order within a conversation is turn.seq, assigned under a row lock on the conversation; never a time.
--  * JSON documents (metadata, tool input, tools used) are stored as canonical JSON text.
--  * Every table carries tenant_id.

CREATE SEQUENCE conversation_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE turn_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE tool_invocation_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE conversation (
    id          BIGINT                      NOT NULL,
    tenant_id   VARCHAR(64)                 NOT NULL,
    chatbot_key VARCHAR(512)                NOT NULL,
    user_id     VARCHAR(512)                NOT NULL,
    session_id  VARCHAR(512)                NOT NULL,
    created_at  TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at  TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    metadata    CHARACTER VARYING                        NOT NULL,
    last_seq    BIGINT                      NOT NULL,
    turn_count  BIGINT                      NOT NULL,
    version     BIGINT                      NOT NULL,
    CONSTRAINT pk_conversation PRIMARY KEY (id),
    CONSTRAINT uk_conversation_key UNIQUE (tenant_id, chatbot_key, user_id, session_id)
);
-- list sessions by user (optionally by chatbot), newest first, keyset on id
CREATE INDEX ix_conversation_user ON conversation (tenant_id, user_id, id);
-- list sessions by chatbot, stats, users of a chatbot
CREATE INDEX ix_conversation_chatbot ON conversation (tenant_id, chatbot_key, user_id, id);

CREATE TABLE turn (
    id                 BIGINT                      NOT NULL,
    tenant_id          VARCHAR(64)                 NOT NULL,
    conversation_id    BIGINT                      NOT NULL,
    seq                BIGINT                      NOT NULL,
    turn_id            VARCHAR(512)                NOT NULL,
    user_id            VARCHAR(512)                NOT NULL,
    chatbot_id         VARCHAR(512),
    user_message       CHARACTER VARYING                        NOT NULL,
    assistant_response CHARACTER VARYING                        NOT NULL,
    context_used       CHARACTER VARYING,
    tools_used         CHARACTER VARYING                        NOT NULL,
    occurred_at        TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    metadata           CHARACTER VARYING                        NOT NULL,
    error              CHARACTER VARYING,
    tokens_user        INTEGER                     NOT NULL,
    tokens_assistant   INTEGER                     NOT NULL,
    tokens_tools       INTEGER                     NOT NULL,
    tokens_total       INTEGER                     NOT NULL,
    tokenizer          VARCHAR(32)                 NOT NULL,
    state              VARCHAR(16)                 NOT NULL,
    schema_version     INTEGER                     NOT NULL,
    norm_version       VARCHAR(16),
    CONSTRAINT pk_turn PRIMARY KEY (id),
    CONSTRAINT fk_turn_conversation FOREIGN KEY (conversation_id) REFERENCES conversation (id) ON DELETE CASCADE,
    CONSTRAINT uk_turn_seq UNIQUE (conversation_id, seq),
    CONSTRAINT uk_turn_turn_id UNIQUE (conversation_id, turn_id)
);

CREATE TABLE tool_invocation (
    id           BIGINT        NOT NULL,
    tenant_id    VARCHAR(64)   NOT NULL,
    turn_pk      BIGINT        NOT NULL,
    ordinal      INTEGER       NOT NULL,
    tool_name    VARCHAR(1024) NOT NULL,
    input        CHARACTER VARYING          NOT NULL,
    output       CHARACTER VARYING,
    status       VARCHAR(16)   NOT NULL,
    error        CHARACTER VARYING,
    elapsed_ms   BIGINT,
    output_chars INTEGER,
    omitted      CHARACTER VARYING          NOT NULL,
    wm_key       VARCHAR(1024),
    CONSTRAINT pk_tool_invocation PRIMARY KEY (id),
    CONSTRAINT fk_tool_invocation_turn FOREIGN KEY (turn_pk) REFERENCES turn (id) ON DELETE CASCADE,
    CONSTRAINT uk_tool_invocation_ordinal UNIQUE (turn_pk, ordinal)
);
