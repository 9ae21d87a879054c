package org.agentmemory.platform.cluster;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.platform.lease.LeaseRule;

/**
 * Runs a housekeeping task on one server of the cluster per period (issue 36 item 2, decision 0018): the task's row in
 * {@code cluster_lease} is taken with one conditional UPDATE ({@link LeaseRule}), the work runs, and the row is
 * released with the run's result. Every server calls {@link #runOnce} from its own timer; the database lets one of
 * them run per period. A server that dies while it runs leaves a lease that expires after one period.
 *
 * <p>Bean-managed concurrency: tasks run in parallel; the only state is the set of rows known to exist.
 */
@Singleton
@LocalBean
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class ClusterLeases {

    private static final Logger LOG = Logger.getLogger(ClusterLeases.class.getName());

    @EJB
    LeaseTable table;

    @Inject
    ServerIdentity server;

    @Inject
    ServerWork work;

    /** Tasks whose row is known to exist (no creation is tried for them again). */
    private final Set<String> rows = ConcurrentHashMap.newKeySet();

    /**
     * Runs {@code task} unless another server ran it less than half a period ago or holds its lease now. The work runs
     * outside any transaction (the caller's is suspended): it starts its own, by calling a bean method, and they have
     * committed when the lease is released. Creates the task's row first when there is none.
     *
     * <p>The result is recorded in the row: a {@link Number} as the rows the run changed (result {@code ok}), anything
     * else as its text. A failure is recorded as {@code failed: } and the exception, frees the lease, and is thrown
     * on; a failure to take or release the lease is logged and answers as if another server had run the task.
     *
     * @param task   the task's name, 1 to 64 characters, the same on every server
     * @param period the task's period, ≥ 1 ms; also how long a lease lasts
     * @param work   the work; its result may be {@code null}
     * @param <R>    the result's type
     * @return the work's result when this server ran it; empty when it did not (or the work returned {@code null})
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public <R> Optional<R> runOnce(String task, Duration period, Supplier<R> work) {
        LeaseRule.Attempt attempt = LeaseRule.attempt(Instant.now(), period);
        if (!take(task, attempt)) {
            return Optional.empty();
        }
        this.work.ran(task);
        R result;
        try {
            result = work.get();
        } catch (RuntimeException | Error e) {
            release(task, attempt.now(), null, "failed: " + e);
            throw e;
        }
        if (result instanceof Number rows) {
            release(task, attempt.now(), rows.longValue(), "ok");
        } else {
            release(task, attempt.now(), null, result == null ? "ok" : result.toString());
        }
        return Optional.ofNullable(result);
    }

    /** @return this server's id in the lease rows */
    public String serverId() {
        return server.id();
    }

    private boolean take(String task, LeaseRule.Attempt attempt) {
        try {
            if (table.take(task, server.id(), attempt)) {
                rows.add(task);
                return true;
            }
            if (rows.contains(task)) {
                return false;
            }
            try {
                table.create(task);
                rows.add(task);
            } catch (RuntimeException racedOnH2) { // another server created it meanwhile: the row exists
                LOG.log(Level.FINE, "The lease row of " + task + " was created by another server", racedOnH2);
            }
            if (table.take(task, server.id(), attempt)) {
                rows.add(task);
                return true;
            }
            return false;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not take the lease of " + task + "; this server skips it this time", e);
            return false;
        }
    }

    private void release(String task, Instant started, Long rows, String result) {
        try {
            if (!table.release(task, server.id(), started, Instant.now(), rows, result)) {
                LOG.warning(() -> "The lease of " + task + " expired while this server ran it, and another server"
                        + " took it; the task's period is shorter than its run");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not release the lease of " + task + "; it expires by itself", e);
        }
    }
}
