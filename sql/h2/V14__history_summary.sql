-- H2 flavour of sql/postgresql/V14: identical except TEXT -> CHARACTER VARYING.
-- Stage 2 compaction (issue 35 item 4, decision 0017): the summary of a conversation's earlier turns, one row per
-- conversation. It covers the contiguous range first_seq..last_seq of the conversation's turns from the oldest, is
-- written in the background after a round's commit dropped turns from the model's context, and is extended with only
-- the turns dropped since (refreshes, added_turns). method is 'model' or 'extractive'. The key columns repeat the
-- conversation's (tenant, chatbot, user, session) so that every query is scoped by tenant and user; deleting a
-- conversation cascades, clearing it deletes the summary explicitly, and right to erasure deletes and counts it.

CREATE SEQUENCE history_summary_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE history_summary (
    id              BIGINT                      NOT NULL,
    tenant_id       VARCHAR(64)                 NOT NULL,
    conversation_id BIGINT                      NOT NULL,
    chatbot_key     VARCHAR(512)                NOT NULL,
    user_id         VARCHAR(512)                NOT NULL,
    session_id      VARCHAR(512)                NOT NULL,
    first_seq       BIGINT                      NOT NULL,
    last_seq        BIGINT                      NOT NULL,
    first_turn_id   VARCHAR(512)                NOT NULL,
    last_turn_id    VARCHAR(512)                NOT NULL,
    turn_count      INTEGER                     NOT NULL,
    summary_text    CHARACTER VARYING           NOT NULL,
    token_count     INTEGER                     NOT NULL,
    tokenizer       VARCHAR(32)                 NOT NULL,
    method          VARCHAR(16)                 NOT NULL,
    refreshes       INTEGER                     NOT NULL,
    added_turns     INTEGER                     NOT NULL,
    created_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    version         BIGINT                      NOT NULL,
    CONSTRAINT pk_history_summary PRIMARY KEY (id),
    CONSTRAINT fk_history_summary_conversation FOREIGN KEY (conversation_id) REFERENCES conversation (id)
        ON DELETE CASCADE,
    CONSTRAINT uk_history_summary_conversation UNIQUE (conversation_id)
);
-- right to erasure: a subject's summaries
CREATE INDEX ix_history_summary_user ON history_summary (tenant_id, user_id, conversation_id);
