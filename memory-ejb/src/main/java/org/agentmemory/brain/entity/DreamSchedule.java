package org.agentmemory.brain.entity;

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
 * The dream state of one agent (spec §12.1 {@code DreamState}, in the database instead of a JSON sidecar): whether
 * its cycle runs on a timer and how often, when it is next due, the watermark, counters, and the lease
 * ({@code leaseOwner}, {@code runningSince}) that lets at most one server run the agent's cycle at a time. The lease
 * is taken and released with conditional updates ({@code DreamLeaseBean}), never through this entity.
 */
@Entity
@Table(name = "dream_schedule")
public class DreamSchedule {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "dream_schedule_seq")
    @SequenceGenerator(name = "dream_schedule_seq", sequenceName = "dream_schedule_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "agent_id", nullable = false, length = 512)
    private String agentId;

    @Column(name = "enabled", nullable = false)
    private boolean enabled;

    @Column(name = "interval_seconds", nullable = false)
    private long intervalSeconds;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "next_due")
    private Instant nextDue;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "watermark")
    private Instant watermark;

    @Column(name = "lease_owner", length = 200)
    private String leaseOwner;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "running_since")
    private Instant runningSince;

    @Column(name = "cycles_completed", nullable = false)
    private long cyclesCompleted;

    @Column(name = "episodes_consolidated", nullable = false)
    private long episodesConsolidated;

    @Column(name = "last_aborted", nullable = false)
    private boolean lastAborted;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected DreamSchedule() {}

    /**
     * A new, disabled schedule that has never run.
     *
     * @param tenantId        the tenant
     * @param agentId         the agent
     * @param intervalSeconds the interval, seconds
     * @param now             the creation time
     */
    public DreamSchedule(String tenantId, String agentId, long intervalSeconds, Instant now) {
        this.tenantId = tenantId;
        this.agentId = agentId;
        this.intervalSeconds = intervalSeconds;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /**
     * Enables or disables the timer. Enabling a disabled schedule, or changing the interval, makes it due one interval
     * from now (spec §12.5 step 3: the first run is not immediate).
     *
     * @param on              whether the timer runs the cycle
     * @param newIntervalSecs the interval, seconds
     * @param now             the change's time
     */
    public void configure(boolean on, long newIntervalSecs, Instant now) {
        boolean restart = on && (!enabled || newIntervalSecs != intervalSeconds);
        this.enabled = on;
        this.intervalSeconds = newIntervalSecs;
        if (restart) {
            this.nextDue = now.plusSeconds(newIntervalSecs);
        }
        this.updatedAt = now;
    }

    public Long getId() {
        return id;
    }

    public String getTenantId() {
        return tenantId;
    }

    public String getAgentId() {
        return agentId;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public long getIntervalSeconds() {
        return intervalSeconds;
    }

    public Instant getNextDue() {
        return nextDue;
    }

    public Instant getWatermark() {
        return watermark;
    }

    public String getLeaseOwner() {
        return leaseOwner;
    }

    public Instant getRunningSince() {
        return runningSince;
    }

    public long getCyclesCompleted() {
        return cyclesCompleted;
    }

    public long getEpisodesConsolidated() {
        return episodesConsolidated;
    }

    public boolean isLastAborted() {
        return lastAborted;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }
}
