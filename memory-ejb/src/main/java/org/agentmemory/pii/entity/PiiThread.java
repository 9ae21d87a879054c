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
 * The lock row of a durable PII thread (issue 34 item 2): inserted before the thread's first message, then locked by
 * every update of the thread so that updates on any server, the first ones included, number values one after the
 * other. {@code threadKey} is the thread's key as in {@link PiiMessage}; {@code hashed} says whether it is hashed.
 */
@Entity
@Table(name = "pii_thread")
public class PiiThread {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "pii_thread_seq")
    @SequenceGenerator(name = "pii_thread_seq", sequenceName = "pii_thread_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "user_id", nullable = false, length = 512)
    private String userId;

    @Column(name = "thread_key", nullable = false, length = 512)
    private String threadKey;

    @Column(name = "hashed", nullable = false)
    private boolean hashed;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected PiiThread() {}

    /**
     * @param tenantId  the tenant
     * @param userId    the user
     * @param threadKey the thread's key
     * @param hashed    whether {@code threadKey} is hashed
     * @param now       when
     */
    public PiiThread(String tenantId, String userId, String threadKey, boolean hashed, Instant now) {
        this.tenantId = tenantId;
        this.userId = userId;
        this.threadKey = threadKey;
        this.hashed = hashed;
        this.createdAt = now;
    }

    public Long getId() {
        return id;
    }
}
