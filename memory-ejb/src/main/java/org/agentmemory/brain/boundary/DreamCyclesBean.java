package org.agentmemory.brain.boundary;

import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.brain.CycleRunningException;
import org.agentmemory.api.brain.DreamCycleReport;
import org.agentmemory.api.brain.DreamCycles;
import org.agentmemory.api.brain.DreamCyclesRemote;
import org.agentmemory.api.brain.DreamSchedule;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.brain.entity.DreamReport;
import org.agentmemory.platform.load.ForegroundRequests;
import org.agentmemory.platform.paging.Cursors;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.validation.InputRules;

/**
 * Dream cycles ({@link DreamCycles}, issue 33 items 3 and 6): run now, read and change an agent's schedule, read its
 * reports. A changed schedule reaches this server's timers at once ({@link DreamSchedulerBean#sync}) and the other
 * servers' within {@code memory.dream.sync-seconds}.
 */
@DeclareRoles({RequiresRole.READER, RequiresRole.WRITER, RequiresRole.ADMIN, RequiresRole.OPERATOR})
@PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@Interceptors({CallerScope.class, ForegroundRequests.class})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DreamCyclesBean implements DreamCycles, DreamCyclesRemote {

    private static final Logger LOG = Logger.getLogger(DreamCyclesBean.class.getName());

    /** Longest interval, seconds (a year). */
    static final long MAX_INTERVAL = 31_536_000L;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    DreamCycleBean cycles;

    @EJB
    DreamLeaseBean leases;

    @EJB
    DreamSchedulerBean scheduler;

    @Inject
    DreamConfig config;

    @Override
    public DreamCycleReport runNow(String tenantId, String agentId)
            throws CycleRunningException, InvalidInputException {
        check(tenantId, agentId);
        return cycles.runNow(tenantId, agentId);
    }

    @Override
    public DreamSchedule schedule(String tenantId, String agentId) throws InvalidInputException {
        check(tenantId, agentId);
        org.agentmemory.brain.entity.DreamSchedule row = leases.find(tenantId, agentId);
        if (row == null) {
            return new DreamSchedule(
                    agentId, false, config.intervalSeconds(), null, null, false, null, null, 0, 0, false);
        }
        return record(row);
    }

    @Override
    public DreamSchedule configure(String tenantId, String agentId, boolean enabled, Long intervalSeconds)
            throws InvalidInputException {
        check(tenantId, agentId);
        if (intervalSeconds != null && (intervalSeconds < 1 || intervalSeconds > MAX_INTERVAL)) {
            throw new InvalidInputException(
                    "intervalSeconds", "range", "intervalSeconds must be between 1 and " + MAX_INTERVAL + ".");
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        if (leases.find(tenantId, agentId) == null) {
            try {
                synchronized (DreamLeaseBean.creationLock(tenantId, agentId)) {
                    leases.create(tenantId, agentId, config.intervalSeconds(), now);
                }
            } catch (EJBException raced) {
                LOG.log(Level.FINE, "Dream schedule created by another caller", raced);
            }
        }
        long interval = intervalSeconds != null
                ? intervalSeconds
                : leases.find(tenantId, agentId).getIntervalSeconds();
        leases.configure(tenantId, agentId, enabled, interval, now);
        scheduler.sync(tenantId, agentId);
        return schedule(tenantId, agentId);
    }

    @Override
    public Page<DreamCycleReport> reports(String tenantId, String agentId, int limit, String cursor)
            throws InvalidInputException {
        check(tenantId, agentId);
        Cursors.checkLimit(limit);
        long bound = Cursors.idBound(cursor);
        List<DreamReport> rows = em.createQuery(
                        "select r from DreamReport r where r.tenantId = :t and r.agentId = :a and r.id < :bound"
                                + " order by r.id desc",
                        DreamReport.class)
                .setParameter("t", tenantId)
                .setParameter("a", agentId)
                .setParameter("bound", bound)
                .setMaxResults(limit + 1)
                .getResultList();
        boolean more = rows.size() > limit;
        List<DreamReport> items = more ? rows.subList(0, limit) : rows;
        List<DreamCycleReport> reports = new ArrayList<>(items.size());
        items.forEach(r -> reports.add(r.toRecord()));
        return new Page<>(
                reports, more ? Cursors.ofId(items.get(items.size() - 1).getId()) : null);
    }

    @Override
    public List<DreamSchedule> enabledSchedules(String tenantId) {
        List<DreamSchedule> found = new ArrayList<>();
        leases.enabledOf(tenantId).forEach(s -> found.add(record(s)));
        return found;
    }

    static DreamSchedule record(org.agentmemory.brain.entity.DreamSchedule s) {
        return new DreamSchedule(
                s.getAgentId(),
                s.isEnabled(),
                s.getIntervalSeconds(),
                s.isEnabled() ? s.getNextDue() : null,
                s.getWatermark(),
                s.getLeaseOwner() != null,
                s.getRunningSince(),
                s.getLeaseOwner(),
                s.getCyclesCompleted(),
                s.getEpisodesConsolidated(),
                s.isLastAborted());
    }

    private static void check(String tenantId, String agentId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("agentId", agentId);
    }
}
