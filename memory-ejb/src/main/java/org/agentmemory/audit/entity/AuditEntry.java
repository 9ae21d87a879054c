package org.agentmemory.audit.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import org.agentmemory.api.audit.AuditEvent;
import org.agentmemory.platform.json.UtcInstantConverter;

/** One row of the append-only audit trail (table {@code audit_event}); never updated once written. */
@Entity
@Table(name = "audit_event")
public class AuditEntry {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "audit_event_seq")
    @SequenceGenerator(name = "audit_event_seq", sequenceName = "audit_event_seq", allocationSize = 50)
    private Long id;

    @Column(name = "occurred_at", nullable = false)
    @Convert(converter = UtcInstantConverter.class)
    private Instant occurredAt;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "caller", nullable = false, length = 256)
    private String caller;

    @Column(name = "operation", nullable = false, length = 128)
    private String operation;

    @Column(name = "target", nullable = false, length = 1024)
    private String target;

    @Column(name = "outcome", nullable = false)
    private int outcome;

    @Column(name = "event_count", nullable = false)
    private int count;

    protected AuditEntry() {}

    /**
     * @param occurredAt when
     * @param tenantId   the tenant (at most 64 characters)
     * @param caller     the caller (at most 256 characters)
     * @param operation  what (at most 128 characters)
     * @param target     ids (at most 1,024 characters)
     * @param outcome    the HTTP status
     * @param count      events the row stands for, ≥ 1
     */
    public AuditEntry(
            Instant occurredAt,
            String tenantId,
            String caller,
            String operation,
            String target,
            int outcome,
            int count) {
        this.occurredAt = occurredAt;
        this.tenantId = tenantId;
        this.caller = caller;
        this.operation = operation;
        this.target = target;
        this.outcome = outcome;
        this.count = count;
    }

    /**
     * Rewrites the row without an erased subject's id (issue 34 item 4).
     *
     * @param newCaller the caller to keep
     * @param newTarget the target to keep
     */
    public void redact(String newCaller, String newTarget) {
        this.caller = newCaller;
        this.target = newTarget;
    }

    /** @return the caller's subject */
    public String getCaller() {
        return caller;
    }

    /** @return the target ids */
    public String getTarget() {
        return target;
    }

    /** @return the row id, {@code null} before it is stored */
    public Long getId() {
        return id;
    }

    /** @return the transfer record */
    public AuditEvent toEvent() {
        return new AuditEvent(id, occurredAt, tenantId, caller, operation, target, outcome, count);
    }
}
