-- H2 flavour of sql/postgresql/V7: identical.
-- Audit trail (issue 32 item 5): security-relevant operations, append-only. Never message content: the target holds
-- ids only. Failed authentications are aggregated per minute (count > 1, tenant '-': the token named none we trust).

CREATE SEQUENCE audit_event_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE audit_event (
    id          BIGINT                      NOT NULL,
    occurred_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    tenant_id   VARCHAR(64)                 NOT NULL,
    caller      VARCHAR(256)                NOT NULL,
    operation   VARCHAR(128)                NOT NULL,
    target      VARCHAR(1024)               NOT NULL,
    outcome     INTEGER                     NOT NULL,
    event_count INTEGER                     NOT NULL,
    CONSTRAINT pk_audit_event PRIMARY KEY (id)
);

CREATE INDEX ix_audit_event_tenant ON audit_event (tenant_id, id);
CREATE INDEX ix_audit_event_time ON audit_event (occurred_at);
