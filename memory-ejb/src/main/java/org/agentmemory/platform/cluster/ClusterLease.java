package org.agentmemory.platform.cluster;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import org.agentmemory.platform.json.UtcInstantConverter;

/**
 * The lease row of one housekeeping task that runs once per cluster ({@code cluster_lease}, migration V16): who took it
 * last, until when, when the last run started and finished, how many runs every server started, and the last run's
 * result. Read through this entity; written only by the conditional statements of {@link LeaseStore}, never by
 * changing an instance.
 */
@Entity
@Table(name = "cluster_lease")
public class ClusterLease {

    @Id
    @Column(name = "task", length = 64)
    private String task;

    @Column(name = "holder", length = 200)
    private String holder;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "lease_until")
    private Instant leaseUntil;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "last_started")
    private Instant lastStarted;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "last_finished")
    private Instant lastFinished;

    @Column(name = "run_count", nullable = false)
    private long runCount;

    @Column(name = "last_rows")
    private Long lastRows;

    @Column(name = "last_result", length = 1000)
    private String lastResult;

    protected ClusterLease() {}

    /** @return the task's name */
    public String getTask() {
        return task;
    }

    /** @return the server that took the lease last, or {@code null} */
    public String getHolder() {
        return holder;
    }

    /** @return when the lease expires, or {@code null} when it is free */
    public Instant getLeaseUntil() {
        return leaseUntil;
    }

    /** @return when the last run started, or {@code null} */
    public Instant getLastStarted() {
        return lastStarted;
    }

    /** @return when the last finished run finished, or {@code null} */
    public Instant getLastFinished() {
        return lastFinished;
    }

    /** @return runs started by every server */
    public long getRunCount() {
        return runCount;
    }

    /** @return rows the last finished run changed, or {@code null} */
    public Long getLastRows() {
        return lastRows;
    }

    /** @return the last finished run's outcome, or {@code null} */
    public String getLastResult() {
        return lastResult;
    }
}
