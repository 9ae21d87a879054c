-- Brain pages (issue 33 item 1): durable knowledge per (tenant, brain, page). brain_id is agent:<agentId> or org;
-- page_id is mem- and 12 hex digits of SHA-1(title::category) (spec §12.3). statements holds every statement with
-- its evidence and history as JSON; body is the current statements rendered, and what full-text search reads.

CREATE SEQUENCE brain_page_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE brain_page (
    id                  BIGINT                      NOT NULL,
    tenant_id           VARCHAR(64)                 NOT NULL,
    brain_id            VARCHAR(600)                NOT NULL,
    page_id             VARCHAR(16)                 NOT NULL,
    title               VARCHAR(400)                NOT NULL,
    category            VARCHAR(16)                 NOT NULL,
    confidence          DOUBLE PRECISION            NOT NULL,
    summary             TEXT                        NOT NULL,
    body                TEXT                        NOT NULL,
    statements          TEXT                        NOT NULL,
    token_count         INTEGER                     NOT NULL,
    asserted_by         VARCHAR(600)                NOT NULL,
    reinforcement_count INTEGER                     NOT NULL,
    created_at          TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at          TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_brain_page PRIMARY KEY (id),
    CONSTRAINT uk_brain_page UNIQUE (tenant_id, brain_id, page_id)
);

-- Listing a brain's pages, most recently changed first.
CREATE INDEX ix_brain_page_updated ON brain_page (tenant_id, brain_id, updated_at, id);
