-- H2 flavour of sql/postgresql/V11: identical.
-- PII threads across servers (issue 34 items 2 and 4; decision 0014).
--
-- pii_thread: one row per durable thread, inserted before the thread's first message and locked (SELECT ... FOR
-- UPDATE) by every update of the thread, so that two concurrent first messages of a thread number their values one
-- after the other. thread_key is the same HMAC-SHA256 hex as pii_message.thread_key (the id in clear when the store
-- runs without keys; hashed then says false, and re-encryption drops those rows). It holds no personal value.
--
-- pii_erasure: one row per right-to-erasure of a user's PII threads. Servers keeping threads in process read it
-- (by id, newest last) to drop what they still hold of that user. user_key is HMAC-SHA256 of tenant and user under
-- memory.pii.pepper (SHA-256 without one), so the log does not keep the erased user's id.

CREATE SEQUENCE pii_thread_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE pii_thread (
    id          BIGINT                      NOT NULL,
    tenant_id   VARCHAR(64)                 NOT NULL,
    user_id     VARCHAR(512)                NOT NULL,
    thread_key  VARCHAR(512)                NOT NULL,
    hashed      BOOLEAN                     NOT NULL,
    created_at  TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_pii_thread PRIMARY KEY (id),
    CONSTRAINT uk_pii_thread UNIQUE (tenant_id, user_id, thread_key)
);

CREATE SEQUENCE pii_erasure_seq START WITH 1 INCREMENT BY 1;

CREATE TABLE pii_erasure (
    id          BIGINT                      NOT NULL,
    tenant_id   VARCHAR(64)                 NOT NULL,
    user_key    VARCHAR(128)                NOT NULL,
    erased_at   TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_pii_erasure PRIMARY KEY (id)
);
-- the newest erasure of a user
CREATE INDEX ix_pii_erasure_user ON pii_erasure (tenant_id, user_key, id);
