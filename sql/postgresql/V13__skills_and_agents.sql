-- Skills and the agents of a tenant (issue 35 items 2 and 3; spec §9.1, §9.5).
--
-- Decisions
--  * skill: one row per skill of an agent; skill_id is the public UUID. (tenant_id, agent_id, name) is unique: a
--    manual create with a taken name answers 409, and the dream cycle's extraction upserts its skills by this key,
--    so a re-run never duplicates one. tools, examples and evidence are JSON arrays of strings; evidence holds the
--    episode:<id> references of an extracted skill's episodes. version counts changes (ETag, If-Match).
--  * skill.embedding is the vector of name, description, tools and instructions for the vector leg of skill search
--    (384 little-endian floats, as episode.embedding); embedding_model names the model, so the leg compares only
--    vectors of the configured model.
--  * registered_agent: the router's registry (spec §9.5), per tenant. domain_description may be null (an agent
--    registered only for its skill settings takes no part in routing). The description's vector is cached with the
--    model that made it; embedding_model set with embedding null means that model could not embed this description,
--    so the router skips the agent without trying again until the description or the model changes.

CREATE SEQUENCE skill_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE skill (
    id              BIGINT                      NOT NULL,
    skill_id        VARCHAR(36)                 NOT NULL,
    tenant_id       VARCHAR(64)                 NOT NULL,
    agent_id        VARCHAR(512)                NOT NULL,
    name            VARCHAR(800)                NOT NULL,
    description     TEXT                        NOT NULL,
    instructions    TEXT                        NOT NULL,
    tools           TEXT                        NOT NULL,
    examples        TEXT                        NOT NULL,
    source          VARCHAR(16)                 NOT NULL,
    evidence        TEXT                        NOT NULL,
    version         BIGINT                      NOT NULL,
    created_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    embedding       BYTEA,
    embedding_model VARCHAR(64),
    CONSTRAINT pk_skill PRIMARY KEY (id),
    CONSTRAINT uk_skill_id UNIQUE (tenant_id, skill_id),
    CONSTRAINT uk_skill_name UNIQUE (tenant_id, agent_id, name)
);

-- Listing an agent's skills, newest first.
CREATE INDEX ix_skill_agent ON skill (tenant_id, agent_id, id);

CREATE SEQUENCE registered_agent_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE registered_agent (
    id                 BIGINT                      NOT NULL,
    tenant_id          VARCHAR(64)                 NOT NULL,
    agent_id           VARCHAR(512)                NOT NULL,
    domain_description TEXT,
    skill_auto_extract BOOLEAN,
    embedding          BYTEA,
    embedding_model    VARCHAR(64),
    created_at         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_registered_agent PRIMARY KEY (id),
    CONSTRAINT uk_registered_agent UNIQUE (tenant_id, agent_id)
);
