-- PII detection threads, durable store (issue 34 item 2, seed 002; decision 0014): one row per remembered message.
-- thread_key and message_key are HMAC-SHA256 hex of the ids under memory.pii.pepper (the ids in clear only when the
-- operator runs without keys, which the server warns about); payload is the AES-GCM ciphertext of the detections
-- (Base64) under the key named by key_id, or the JSON in clear when key_id = 'plain'. Scoped by tenant and user:
-- every query names both, and right to erasure deletes by them.

CREATE SEQUENCE pii_message_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE pii_message (
    id              BIGINT                      NOT NULL,
    tenant_id       VARCHAR(64)                 NOT NULL,
    user_id         VARCHAR(512)                NOT NULL,
    thread_key      VARCHAR(512)                NOT NULL,
    message_key     VARCHAR(512)                NOT NULL,
    role            VARCHAR(16)                 NOT NULL,
    detection_count INTEGER                     NOT NULL,
    key_id          VARCHAR(32)                 NOT NULL,
    payload         TEXT NOT NULL,
    created_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_pii_message PRIMARY KEY (id),
    CONSTRAINT uk_pii_message UNIQUE (tenant_id, user_id, thread_key, message_key)
);
-- a thread's messages in first-seen order
CREATE INDEX ix_pii_message_thread ON pii_message (tenant_id, user_id, thread_key, created_at, id);
-- re-encryption finds the rows not under the current key
CREATE INDEX ix_pii_message_key ON pii_message (tenant_id, key_id, id);
