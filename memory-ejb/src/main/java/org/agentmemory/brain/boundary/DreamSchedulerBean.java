package org.agentmemory.brain.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.brain.entity.DreamSchedule;

/**
 * Runs the agents' dream cycles on EJB timers (issue 33 item 3; spec §12.5, with the database as the state): one
 * persistent single-action timer per enabled agent on every server, set for the schedule's due time. When it fires,
 * {@link DreamCycleBean#runDue} takes the agent's lease only if the schedule is still due and no live lease exists,
 * so of several servers (or a timer and a {@code runNow}) exactly one runs the cycle; the others find it not due any
 * more and set their timer for the new due time.
 *
 * <ul>
 *   <li>Start-up: the timers of a previous run are replaced from the database. A schedule that fell due while the
 *       server was down runs once, after a random delay of up to {@code memory.dream.startup-jitter-seconds} (not
 *       once per missed interval); the others keep their due time.</li>
 *   <li>Every {@code memory.dream.sync-seconds} the timers are compared with the enabled schedules: a schedule enabled
 *       on another server gets a timer here, a disabled one loses its timer.</li>
 *   <li>After a cycle the next due time is interval after its end, or interval / {@code memory.dream.backoff-divisor}
 *       after an aborted one ({@link DreamLeaseBean#release}).</li>
 * </ul>
 */
@Singleton
@Startup
@LocalBean
@DependsOn("SchemaMigrationBean")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DreamSchedulerBean {

    private static final Logger LOG = Logger.getLogger(DreamSchedulerBean.class.getName());

    /** Info of the reconciliation timer. */
    static final String SYNC = "dream-sync";

    /** Prefix of an agent's timer info: {@code dream}, NUL, tenant, NUL, agent. */
    static final String AGENT = "dream\u0000";

    /** Longest random delay of a timer after its due time, milliseconds. */
    static final long SPREAD_MILLIS = 1_000;

    @Resource
    TimerService timers;

    @EJB
    DreamLeaseBean leases;

    @EJB
    DreamCycleBean cycles;

    @Inject
    DreamConfig config;

    private volatile boolean started;

    @PostConstruct
    void start() {
        for (Timer t : timers.getTimers()) {
            if (t.getInfo() instanceof String s && (s.startsWith(AGENT) || s.equals(SYNC))) {
                t.cancel();
            }
        }
        Instant now = Instant.now();
        int caughtUp = 0;
        for (DreamSchedule s : leases.allEnabled()) {
            Instant due = s.getNextDue() == null ? now.plusSeconds(s.getIntervalSeconds()) : s.getNextDue();
            if (!due.isAfter(now)) {
                due = now.plusMillis(ThreadLocalRandom.current().nextLong(config.jitterSeconds() * 1000L + 1));
                caughtUp++;
            }
            schedule(s, due);
        }
        long period = config.syncSeconds() * 1000L;
        timers.createIntervalTimer(period, period, new TimerConfig(SYNC, false));
        started = true;
        if (caughtUp > 0) {
            LOG.info("Dream cycles due while the server was down: " + caughtUp + " (each runs once, after a jitter of"
                    + " up to " + config.jitterSeconds() + " s)");
        }
    }

    @Timeout
    void fire(Timer timer) {
        if (!(timer.getInfo() instanceof String info) || !started) {
            return;
        }
        try {
            if (info.equals(SYNC)) {
                syncAll();
            } else if (info.startsWith(AGENT)) {
                String[] key = info.substring(AGENT.length()).split("\u0000", 2);
                due(key[0], key[1]);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Dream timer " + info.replace('\u0000', '/') + " failed", e);
        }
    }

    private void due(String tenantId, String agentId) {
        cycles.runDue(tenantId, agentId);
        DreamSchedule s = leases.find(tenantId, agentId);
        if (s == null || !s.isEnabled()) {
            return;
        }
        Instant now = Instant.now();
        Instant next = s.getNextDue() == null ? now.plusSeconds(s.getIntervalSeconds()) : s.getNextDue();
        if (s.getLeaseOwner() != null || !next.isAfter(now)) {
            // Another server is running it, or it is not due here yet: look again later, not in a busy loop.
            next = now.plusSeconds(Math.min(s.getIntervalSeconds(), config.syncSeconds()));
        }
        schedule(s, next);
    }

    /**
     * Brings this server's timer of one agent in line with its schedule now (after a change through the API).
     *
     * @param tenantId the tenant
     * @param agentId  the agent
     */
    public void sync(String tenantId, String agentId) {
        String info = info(tenantId, agentId);
        for (Timer t : timers.getTimers()) {
            if (info.equals(t.getInfo())) {
                t.cancel();
            }
        }
        DreamSchedule s = leases.find(tenantId, agentId);
        if (s != null && s.isEnabled() && s.getNextDue() != null) {
            schedule(s, s.getNextDue());
        }
    }

    private void syncAll() {
        Map<String, DreamSchedule> enabled = new HashMap<>();
        for (DreamSchedule s : leases.allEnabled()) {
            enabled.put(info(s.getTenantId(), s.getAgentId()), s);
        }
        Map<String, Timer> existing = new HashMap<>();
        for (Timer t : timers.getTimers()) {
            if (t.getInfo() instanceof String info && info.startsWith(AGENT)) {
                if (!enabled.containsKey(info) || existing.containsKey(info)) {
                    t.cancel();
                } else {
                    existing.put(info, t);
                }
            }
        }
        Instant now = Instant.now();
        for (Map.Entry<String, DreamSchedule> e : enabled.entrySet()) {
            if (!existing.containsKey(e.getKey())) {
                DreamSchedule s = e.getValue();
                Instant due = s.getNextDue() == null || s.getNextDue().isBefore(now) ? now : s.getNextDue();
                schedule(s, due);
            }
        }
    }

    /**
     * Sets the agent's timer a random moment after {@code due}: up to a quarter of the interval, at most
     * {@value #SPREAD_MILLIS} ms. Servers whose timers all fired at the due time would race for the lease and the
     * quickest (the warmest JVM) would win every time; spread, they take turns, and the lease row is not hit by every
     * server in the same millisecond.
     */
    private void schedule(DreamSchedule s, Instant due) {
        long spread = Math.min(SPREAD_MILLIS, s.getIntervalSeconds() * 250L);
        Instant at = due.plusMillis(ThreadLocalRandom.current().nextLong(spread + 1));
        timers.createSingleActionTimer(Date.from(at), new TimerConfig(info(s.getTenantId(), s.getAgentId()), true));
    }

    private static String info(String tenantId, String agentId) {
        return AGENT + tenantId + "\u0000" + agentId;
    }
}
