-- H2 flavour of sql/postgresql/V3: identical except TEXT -> CHARACTER VARYING.
-- Answer memory (issue 3): an agent's question/answer pairs by turn id, persisted (the reference keeps them
-- in a process-local dict). The answer is any JSON value, stored as canonical JSON text.

CREATE SEQUENCE answer_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE answer (
    id        BIGINT                      NOT NULL,
    tenant_id VARCHAR(64)                 NOT NULL,
    agent_id  VARCHAR(512)                NOT NULL,
    turn_id   VARCHAR(512)                NOT NULL,
    question  CHARACTER VARYING                        NOT NULL,
    answer    CHARACTER VARYING                        NOT NULL,
    stored_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_answer PRIMARY KEY (id),
    CONSTRAINT uk_answer_turn UNIQUE (tenant_id, agent_id, turn_id)
);
