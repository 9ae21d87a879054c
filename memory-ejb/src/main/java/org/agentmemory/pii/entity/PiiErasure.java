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
 * One right-to-erasure of a user's PII threads (issue 34 item 4), read by every server that keeps threads in process
 * to drop what it still holds of the user. Ids grow with each erasure; {@code userKey} is a keyed hash of tenant and
 * user, never the user id.
 */
@Entity
@Table(name = "pii_erasure")
public class PiiErasure {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "pii_erasure_seq")
    @SequenceGenerator(name = "pii_erasure_seq", sequenceName = "pii_erasure_seq", allocationSize = 1)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "user_key", nullable = false, length = 128)
    private String userKey;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "erased_at", nullable = false)
    private Instant erasedAt;

    protected PiiErasure() {}

    /**
     * @param tenantId the tenant
     * @param userKey  the keyed hash of tenant and user
     * @param erasedAt when
     */
    public PiiErasure(String tenantId, String userKey, Instant erasedAt) {
        this.tenantId = tenantId;
        this.userKey = userKey;
        this.erasedAt = erasedAt;
    }

    public Long getId() {
        return id;
    }

    public String getTenantId() {
        return tenantId;
    }

    public String getUserKey() {
        return userKey;
    }
}
