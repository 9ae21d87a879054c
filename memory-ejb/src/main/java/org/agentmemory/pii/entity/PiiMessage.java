package org.agentmemory.pii.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import org.agentmemory.platform.json.UtcInstantConverter;

/**
 * The detections remembered for one message of a PII thread (issue 34 item 2, seed 002). {@code threadKey} and
 * {@code messageKey} are HMAC-SHA256 hex of the ids under the pepper (the ids themselves in a plaintext store);
 * {@code payload} is the AES-GCM ciphertext of the detections' JSON under the key {@code keyId} (the JSON itself when
 * {@code keyId} is {@code plain}). {@code detectionCount} is kept in clear so that erasure counts without decrypting.
 */
@Entity
@Table(name = "pii_message")
public class PiiMessage {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "pii_message_seq")
    @SequenceGenerator(name = "pii_message_seq", sequenceName = "pii_message_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "user_id", nullable = false, length = 512)
    private String userId;

    @Column(name = "thread_key", nullable = false, length = 512)
    private String threadKey;

    @Column(name = "message_key", nullable = false, length = 512)
    private String messageKey;

    @Column(name = "role", nullable = false, length = 16)
    private String role;

    @Column(name = "detection_count", nullable = false)
    private int detectionCount;

    @Column(name = "key_id", nullable = false, length = 32)
    private String keyId;

    @Column(name = "payload", nullable = false)
    private String payload;

    /** First remembered: the message's position in its thread; kept when the message is remembered again. */
    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected PiiMessage() {}

    /**
     * @param tenantId   the tenant
     * @param userId     the user
     * @param threadKey  the thread's key (hashed or clear)
     * @param messageKey the message's key (hashed or clear)
     * @param now        when it is first remembered
     */
    public PiiMessage(String tenantId, String userId, String threadKey, String messageKey, Instant now) {
        this.tenantId = tenantId;
        this.userId = userId;
        this.threadKey = threadKey;
        this.messageKey = messageKey;
        this.createdAt = now;
    }

    /**
     * Replaces what is stored.
     *
     * @param role           who wrote the message
     * @param detectionCount how many detections the payload holds
     * @param keyId          the key the payload is encrypted under, or {@code plain}
     * @param payload        the payload
     * @param now            when
     */
    public void store(String role, int detectionCount, String keyId, String payload, Instant now) {
        this.role = role;
        this.detectionCount = detectionCount;
        this.keyId = keyId;
        this.payload = payload;
        this.updatedAt = now;
    }

    /**
     * Re-keys a row stored in clear once keys are configured.
     *
     * @param threadKey  the hashed thread key
     * @param messageKey the hashed message key
     */
    public void rekey(String threadKey, String messageKey) {
        this.threadKey = threadKey;
        this.messageKey = messageKey;
    }

    public Long getId() {
        return id;
    }

    public String getTenantId() {
        return tenantId;
    }

    public String getUserId() {
        return userId;
    }

    public String getThreadKey() {
        return threadKey;
    }

    public String getMessageKey() {
        return messageKey;
    }

    public String getRole() {
        return role;
    }

    public int getDetectionCount() {
        return detectionCount;
    }

    public String getKeyId() {
        return keyId;
    }

    public String getPayload() {
        return payload;
    }
}
