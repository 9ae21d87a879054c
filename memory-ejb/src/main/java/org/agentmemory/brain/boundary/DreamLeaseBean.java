package org.agentmemory.brain.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.List;
import org.agentmemory.api.brain.DreamCycleReport;
import org.agentmemory.brain.entity.DreamReport;
import org.agentmemory.brain.entity.DreamSchedule;

/**
 * The agents' dream schedules and leases in the database (issue 33 item 3), each operation in a transaction of its
 * own. A lease is taken with one conditional UPDATE: free, or stale (taken more than 2 × interval ago, spec §12.5),
 * and for a timer also due. Of two servers (or a timer and a {@code runNow}) racing for it, the database lets exactly
 * one UPDATE match; the other sees zero rows and does not run.
 */
@Stateless
@LocalBean
public class DreamLeaseBean {

    /** Serialises first creations of one agent's row on this server (other servers: the unique key decides). */
    private static final Object[] CREATION = new Object[64];

    static {
        for (int i = 0; i < CREATION.length; i++) {
            CREATION[i] = new Object();
        }
    }

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @return the monitor to hold around {@link #create} for this agent
     */
    static Object creationLock(String tenantId, String agentId) {
        return CREATION[Math.floorMod((tenantId + '\0' + agentId).hashCode(), CREATION.length)];
    }

    /**
     * What taking a lease found.
     *
     * @param acquired     whether this caller holds the lease now
     * @param since        the lease's time: this caller's when acquired, else the holder's ({@code null} when the
     *                     schedule was simply not due)
     * @param watermark    the watermark
     * @param interval     the schedule's interval, seconds
     * @param enabled      whether the schedule is enabled
     * @param nextDue      when the schedule is due
     */
    public record Lease(
            boolean acquired, Instant since, Instant watermark, long interval, boolean enabled, Instant nextDue) {}

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @return the agent's schedule row, or {@code null}
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public DreamSchedule find(String tenantId, String agentId) {
        List<DreamSchedule> found = em.createQuery(
                        "select s from DreamSchedule s where s.tenantId = :t and s.agentId = :a", DreamSchedule.class)
                .setParameter("t", tenantId)
                .setParameter("a", agentId)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /**
     * Creates the agent's schedule row when it has none (disabled, never run). Two creations at once collide on the
     * unique key; the caller retries and finds the row.
     *
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param interval the default interval, seconds
     * @param now      the time
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void create(String tenantId, String agentId, long interval, Instant now) {
        if (find(tenantId, agentId) == null) {
            em.persist(new DreamSchedule(tenantId, agentId, interval, now));
            em.flush();
        }
    }

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param enabled  whether a timer runs the cycle
     * @param interval the interval, seconds
     * @param now      the time
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void configure(String tenantId, String agentId, boolean enabled, long interval, Instant now) {
        DreamSchedule s = find(tenantId, agentId);
        s.configure(enabled, interval, now);
    }

    /**
     * Takes the agent's lease if it is free or stale, and (for a timer) the schedule is enabled and due.
     *
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param owner    this server's identity
     * @param now      the time
     * @param dueOnly  whether the schedule must be enabled and due (a timer) or not ({@code runNow})
     * @return what was found; {@code null} when the agent has no schedule row
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public Lease acquire(String tenantId, String agentId, String owner, Instant now, boolean dueOnly) {
        DreamSchedule s = find(tenantId, agentId);
        if (s == null) {
            return null;
        }
        Instant stale = now.minusSeconds(2 * s.getIntervalSeconds());
        int taken = em.createQuery("update DreamSchedule s set s.leaseOwner = :owner, s.runningSince = :now"
                        + " where s.id = :id and s.intervalSeconds = :interval"
                        + " and (s.leaseOwner is null or s.runningSince < :stale)"
                        + (dueOnly ? " and s.enabled = true and s.nextDue <= :now" : ""))
                .setParameter("owner", owner)
                .setParameter("now", now)
                .setParameter("id", s.getId())
                .setParameter("interval", s.getIntervalSeconds())
                .setParameter("stale", stale)
                .executeUpdate();
        boolean live = s.getLeaseOwner() != null && !s.getRunningSince().isBefore(stale);
        return new Lease(
                taken == 1,
                taken == 1 ? now : (live ? s.getRunningSince() : null),
                s.getWatermark(),
                s.getIntervalSeconds(),
                s.isEnabled(),
                s.getNextDue());
    }

    /**
     * Ends a cycle: writes its report, moves the watermark (unless it aborted), sets the next due time (interval
     * after now, or interval / back-off divisor after an aborted cycle, spec §12.5) and frees the lease, in one
     * transaction. Nothing changes when this server no longer holds the lease (a stale lease taken over).
     *
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param owner    this server's identity
     * @param since    the lease's time
     * @param report   the cycle's report
     * @param trigger  {@code timer} or {@code manual}
     * @param nextDue  the next due time
     * @return the stored report, with its id
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public DreamCycleReport release(
            String tenantId,
            String agentId,
            String owner,
            Instant since,
            DreamCycleReport report,
            String trigger,
            Instant nextDue) {
        DreamReport row = new DreamReport(tenantId, agentId, trigger, owner, report);
        em.persist(row);
        em.createQuery("update DreamSchedule s set s.leaseOwner = null, s.runningSince = null,"
                        + " s.nextDue = :next,"
                        + " s.watermark = :watermark, s.lastAborted = :aborted,"
                        + " s.cyclesCompleted = s.cyclesCompleted + :completed,"
                        + " s.episodesConsolidated = s.episodesConsolidated + :consolidated, s.updatedAt = :now"
                        + " where s.tenantId = :t and s.agentId = :a and s.leaseOwner = :owner"
                        + " and s.runningSince = :since")
                .setParameter("next", nextDue)
                .setParameter("watermark", report.aborted() ? report.watermarkBefore() : report.watermarkAfter())
                .setParameter("aborted", report.aborted())
                .setParameter("completed", report.aborted() ? 0L : 1L)
                .setParameter("consolidated", (long) report.episodesConsolidated())
                .setParameter("now", report.finishedAt())
                .setParameter("t", tenantId)
                .setParameter("a", agentId)
                .setParameter("owner", owner)
                .setParameter("since", since)
                .executeUpdate();
        em.flush();
        return row.toRecord();
    }

    /** @return the enabled schedules of every tenant (for the timers' reconciliation), at most 100,000 */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<DreamSchedule> allEnabled() {
        return em.createQuery("select s from DreamSchedule s where s.enabled = true order by s.id", DreamSchedule.class)
                .setMaxResults(100_000)
                .getResultList();
    }

    /**
     * @param tenantId the tenant
     * @return the tenant's enabled schedules, by agent id, at most 1,000
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<DreamSchedule> enabledOf(String tenantId) {
        return em.createQuery(
                        "select s from DreamSchedule s where s.tenantId = :t and s.enabled = true order by s.agentId",
                        DreamSchedule.class)
                .setParameter("t", tenantId)
                .setMaxResults(1_000)
                .getResultList();
    }
}
