package org.agentmemory.platform.cluster;

import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.List;
import org.agentmemory.platform.lease.LeaseRule;

/**
 * The {@code cluster_lease} rows in the caller's transaction: create a task's row, take its lease with one conditional
 * UPDATE ({@link LeaseRule}), release it with the run's result. Of several servers (or threads) taking the same lease
 * at once, the database lets exactly one UPDATE match: the others wait for its row lock and then see the new row,
 * which no longer qualifies (PostgreSQL re-checks the condition on the committed row under READ COMMITTED; H2 locks
 * the row and reads its committed version).
 */
public final class LeaseStore {

    /** Longest stored result text, characters (the column's length). */
    static final int MAX_RESULT = 1000;

    private final EntityManager em;
    private final boolean postgres;

    /**
     * @param em       the entity manager, in a transaction for every write
     * @param postgres whether the database is PostgreSQL (else H2): how a row is created
     */
    public LeaseStore(EntityManager em, boolean postgres) {
        this.em = em;
        this.postgres = postgres;
    }

    /**
     * Creates the task's row, free and never run, unless it exists. On PostgreSQL two servers creating it at once both
     * succeed ({@code ON CONFLICT DO NOTHING}); on H2 the loser of such a race fails with a duplicate key, and should
     * simply go on: the row exists. Run it in a transaction of its own for that reason.
     *
     * @param task the task's name, 1 to 64 characters
     * @return whether this call created it
     * @throws jakarta.persistence.PersistenceException on H2, when another transaction created the row meanwhile
     */
    public boolean create(String task) {
        String sql = postgres
                ? "INSERT INTO cluster_lease (task, run_count) VALUES (?1, 0) ON CONFLICT (task) DO NOTHING"
                : "MERGE INTO cluster_lease t USING (SELECT CAST(?1 AS VARCHAR(64)) AS task) s ON t.task = s.task"
                        + " WHEN NOT MATCHED THEN INSERT (task, run_count) VALUES (s.task, 0)";
        return em.createNativeQuery(sql).setParameter(1, task).executeUpdate() == 1;
    }

    /**
     * Takes the task's lease when {@link LeaseRule#mayTake} allows it, counting a run.
     *
     * @param task    the task's name
     * @param server  this server's id
     * @param attempt the attempt's times
     * @return whether this server took it (false also when the task has no row)
     */
    public boolean take(String task, String server, LeaseRule.Attempt attempt) {
        return em.createQuery("update ClusterLease l set l.holder = :server, l.leaseUntil = :until,"
                                + " l.lastStarted = :now, l.runCount = l.runCount + 1"
                                + " where l.task = :task and (l.leaseUntil is null or l.leaseUntil <= :now)"
                                + " and (l.lastStarted is null or l.lastStarted <= :startedBefore"
                                + " or l.holder = :server)")
                        .setParameter("server", server)
                        .setParameter("until", attempt.leaseUntil())
                        .setParameter("now", attempt.now())
                        .setParameter("task", task)
                        .setParameter("startedBefore", attempt.startedBefore())
                        .executeUpdate()
                == 1;
    }

    /**
     * Frees the lease this server took at {@code started} and records the run's end. Nothing changes when the lease
     * expired and another server took it meanwhile (its run is the one that counts now).
     *
     * @param task     the task's name
     * @param server   this server's id
     * @param started  the run's start, as {@link #take} wrote it
     * @param finished when it finished
     * @param rows     rows it changed, or {@code null}
     * @param result   its outcome ({@code ok}, {@code failed: …}); cut to {@value #MAX_RESULT} characters
     * @return whether the row was still this run's
     */
    public boolean release(String task, String server, Instant started, Instant finished, Long rows, String result) {
        String text =
                result == null || result.length() <= MAX_RESULT ? result : result.substring(0, MAX_RESULT - 1) + "…";
        return em.createQuery("update ClusterLease l set l.leaseUntil = null, l.lastFinished = :finished,"
                                + " l.lastRows = :rows, l.lastResult = :result"
                                + " where l.task = :task and l.holder = :server and l.lastStarted = :started")
                        .setParameter("finished", finished)
                        .setParameter("rows", rows)
                        .setParameter("result", text)
                        .setParameter("task", task)
                        .setParameter("server", server)
                        .setParameter("started", started)
                        .executeUpdate()
                == 1;
    }

    /**
     * @param task the task's name
     * @return its row as the database holds it now, or {@code null}
     */
    public ClusterLease find(String task) {
        List<ClusterLease> found = em.createQuery(
                        "select l from ClusterLease l where l.task = :task", ClusterLease.class)
                .setParameter("task", task)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /** @return every task's row, by task name */
    public List<ClusterLease> all() {
        return em.createQuery("select l from ClusterLease l order by l.task", ClusterLease.class)
                .setMaxResults(1_000)
                .getResultList();
    }
}
