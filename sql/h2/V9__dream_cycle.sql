-- H2 flavour of sql/postgresql/V9: TEXT -> CHARACTER VARYING, the metadata read with a regular expression, and a
-- plain index (H2 has no partial index).
-- The dream cycle (issue 33 items 2, 3, 5; spec §12): which episodes are consolidated, a schedule with a lease per
-- agent, a report row per cycle, and what promotion needs on a page.
--
-- Decisions
--  * episode.consolidated_into copies the metadata key consolidated_into (spec §12.2 step 8) into a column, so a
--    cycle collects "eligible and not consolidated" with an index instead of reading every episode's JSON; the
--    partial index holds only the episodes still waiting.
--  * dream_schedule is the state of spec §12.1 (watermark, next due, counters) in the database, with a lease
--    (lease_owner, running_since) in place of the reference's JSON lock file: servers sharing the database take
--    an agent's lease with a conditional UPDATE, so at most one runs its cycle at a time (spec §12.5, issue 33 item 3).
--  * brain_page.dream_cycles counts the distinct cycles that reinforced a page (last_dream_cycle makes the count
--    once per cycle); promoted_at marks a page copied to the organisation brain.

ALTER TABLE episode ADD COLUMN consolidated_into VARCHAR(64);
UPDATE episode SET consolidated_into = LEFT(REGEXP_SUBSTR(metadata, '"consolidated_into":"([^"]*)"', 1, 1, '', 1), 64)
 WHERE metadata LIKE '%consolidated_into%';
CREATE INDEX ix_episode_unconsolidated ON episode (tenant_id, agent_id, created_at, id);

ALTER TABLE brain_page ADD COLUMN dream_cycles INTEGER NOT NULL DEFAULT 0;
ALTER TABLE brain_page ADD COLUMN last_dream_cycle BIGINT;
ALTER TABLE brain_page ADD COLUMN promoted_at TIMESTAMP(6) WITH TIME ZONE;
-- the page's vector (title and current statements) for the vector leg of brain search, as episode.embedding
ALTER TABLE brain_page ADD COLUMN embedding BINARY VARYING(65536);
ALTER TABLE brain_page ADD COLUMN embedding_model VARCHAR(64);

CREATE SEQUENCE dream_schedule_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE dream_report_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE dream_schedule (
    id                    BIGINT                      NOT NULL,
    tenant_id             VARCHAR(64)                 NOT NULL,
    agent_id              VARCHAR(512)                NOT NULL,
    enabled               BOOLEAN                     NOT NULL,
    interval_seconds      BIGINT                      NOT NULL,
    next_due              TIMESTAMP(6) WITH TIME ZONE,
    watermark             TIMESTAMP(6) WITH TIME ZONE,
    lease_owner           VARCHAR(200),
    running_since         TIMESTAMP(6) WITH TIME ZONE,
    cycles_completed      BIGINT                      NOT NULL,
    episodes_consolidated BIGINT                      NOT NULL,
    last_aborted          BOOLEAN                     NOT NULL,
    created_at            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_dream_schedule PRIMARY KEY (id),
    CONSTRAINT uk_dream_schedule UNIQUE (tenant_id, agent_id)
);
-- the schedulers' reconciliation reads the enabled schedules
CREATE INDEX ix_dream_schedule_enabled ON dream_schedule (enabled, next_due);

CREATE TABLE dream_report (
    id                     BIGINT                      NOT NULL,
    tenant_id              VARCHAR(64)                 NOT NULL,
    agent_id               VARCHAR(512)                NOT NULL,
    trigger_kind           VARCHAR(16)                 NOT NULL,
    server_id              VARCHAR(200)                NOT NULL,
    started_at             TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    finished_at            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    episodes_collected     INTEGER                     NOT NULL,
    groups_formed          INTEGER                     NOT NULL,
    groups_distilled       INTEGER                     NOT NULL,
    groups_by_model        INTEGER                     NOT NULL,
    groups_skipped         INTEGER                     NOT NULL,
    groups_deferred        INTEGER                     NOT NULL,
    episodes_consolidated  INTEGER                     NOT NULL,
    pages_created          CHARACTER VARYING                        NOT NULL,
    pages_merged           CHARACTER VARYING                        NOT NULL,
    pages_promoted         CHARACTER VARYING                        NOT NULL,
    statements_added       INTEGER                     NOT NULL,
    statements_superseded  INTEGER                     NOT NULL,
    aborted                BOOLEAN                     NOT NULL,
    abort_reason           CHARACTER VARYING,
    watermark_before       TIMESTAMP(6) WITH TIME ZONE,
    watermark_after        TIMESTAMP(6) WITH TIME ZONE,
    CONSTRAINT pk_dream_report PRIMARY KEY (id)
);
-- an agent's reports, newest first
CREATE INDEX ix_dream_report_agent ON dream_report (tenant_id, agent_id, id);
