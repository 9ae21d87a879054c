package org.agentmemory.brain.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.brain.BrainRef;
import org.agentmemory.api.brain.CycleRunningException;
import org.agentmemory.api.brain.DreamCycleReport;
import org.agentmemory.api.brain.PageWriteResult;
import org.agentmemory.brain.control.DreamCycle;
import org.agentmemory.brain.control.DreamEpisode;
import org.agentmemory.episodic.boundary.EpisodeFeedBean;
import org.agentmemory.skills.boundary.SkillExtractionBean;

/**
 * Runs one agent's dream cycle under its lease (issue 33 items 2 and 3): takes the lease ({@link DreamLeaseBean}),
 * runs {@link DreamCycle} with episodes from {@link EpisodeFeedBean}, pages written by {@link BrainPageWriterBean} and
 * knowledge from {@link DistillationService}, then, when it is on for the agent, extracts its skills
 * ({@link SkillExtractionBean}), and releases the lease with the report. No transaction spans the cycle:
 * every archive, reinforcement, mark and promotion commits on its own, which is what makes a crash at any point safe
 * to re-run.
 */
@Stateless
@LocalBean
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DreamCycleBean {

    private static final Logger LOG = Logger.getLogger(DreamCycleBean.class.getName());

    /** Trigger of a cycle run by a timer. */
    public static final String TIMER = "timer";

    /** Trigger of a cycle run by {@code runNow}. */
    public static final String MANUAL = "manual";

    @EJB
    DreamLeaseBean leases;

    @EJB
    BrainPageWriterBean writer;

    @EJB
    EpisodeFeedBean feed;

    @EJB
    SkillExtractionBean skills;

    @Inject
    DistillationService distiller;

    @Inject
    DreamConfig config;

    /**
     * @param tenantId the tenant
     * @param agentId  the agent (already checked)
     * @return the cycle's report
     * @throws CycleRunningException when a live lease is held
     */
    public DreamCycleReport runNow(String tenantId, String agentId) throws CycleRunningException {
        Instant now = now();
        DreamLeaseBean.Lease lease = lease(tenantId, agentId, now, false);
        if (!lease.acquired()) {
            throw new CycleRunningException(agentId, lease.since());
        }
        return run(tenantId, agentId, lease, MANUAL);
    }

    /**
     * A timer's run: only when the schedule is enabled and due and the lease is free.
     *
     * @param tenantId the tenant
     * @param agentId  the agent
     * @return the report, or {@code null} when nothing ran (not due, disabled, or another server runs it)
     */
    public DreamCycleReport runDue(String tenantId, String agentId) {
        DreamLeaseBean.Lease lease = leases.acquire(tenantId, agentId, config.serverId(), now(), true);
        return lease == null || !lease.acquired() ? null : run(tenantId, agentId, lease, TIMER);
    }

    private DreamLeaseBean.Lease lease(String tenantId, String agentId, Instant now, boolean dueOnly) {
        DreamLeaseBean.Lease lease = leases.acquire(tenantId, agentId, config.serverId(), now, dueOnly);
        if (lease != null) {
            return lease;
        }
        try {
            synchronized (DreamLeaseBean.creationLock(tenantId, agentId)) {
                leases.create(tenantId, agentId, config.intervalSeconds(), now);
            }
        } catch (EJBException raced) {
            LOG.log(Level.FINE, "Dream schedule created by another caller", raced);
        }
        return leases.acquire(tenantId, agentId, config.serverId(), now, dueOnly);
    }

    private DreamCycleReport run(String tenantId, String agentId, DreamLeaseBean.Lease lease, String trigger) {
        BrainRef brain = new BrainRef(tenantId, agentId);
        long cycle = lease.since().getEpochSecond() * 1_000_000L + lease.since().getNano() / 1_000;
        String fault = config.fault();
        DreamCycleReport report;
        try {
            report = DreamCycle.run(lease.watermark(), config.limits(), ports(brain, cycle, fault), Clock.systemUTC());
        } catch (RuntimeException unexpected) {
            LOG.log(Level.WARNING, "Dream cycle of " + agentId + " failed", unexpected);
            Instant at = now();
            report = new DreamCycleReport(
                    0,
                    agentId,
                    trigger,
                    config.serverId(),
                    lease.since(),
                    at,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    List.of(),
                    List.of(),
                    List.of(),
                    0,
                    0,
                    true,
                    "cycle failed: " + unexpected,
                    lease.watermark(),
                    lease.watermark());
        }
        if (!report.aborted()) {
            extractSkills(tenantId, agentId);
        }
        long wait = report.aborted() ? Math.max(1, lease.interval() / config.backoffDivisor()) : lease.interval();
        DreamCycleReport stored = leases.release(
                tenantId,
                agentId,
                config.serverId(),
                lease.since(),
                report,
                trigger,
                report.finishedAt().plusSeconds(wait).truncatedTo(ChronoUnit.MICROS));
        log(stored);
        return stored;
    }

    /**
     * Extracts the agent's skills from its successful episodes while the cycle's lease is held (spec §9.4
     * {@code skill_auto_extract}, issue 35 item 2), when that is on for the agent; a failure is logged and changes
     * nothing of the cycle.
     */
    private void extractSkills(String tenantId, String agentId) {
        try {
            skills.extractIfEnabled(tenantId, agentId);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Skill extraction of " + agentId + " failed; the dream cycle is not affected", e);
        }
    }

    private static void log(DreamCycleReport r) {
        Level level = r.episodesCollected() == 0 && !r.aborted() ? Level.FINE : Level.INFO;
        LOG.log(
                level,
                () -> "Dream cycle " + r.cycleId() + " of " + r.agentId() + " (" + r.trigger() + "): collected "
                        + r.episodesCollected() + ", groups " + r.groupsFormed() + ", distilled " + r.groupsDistilled()
                        + ", skipped " + r.groupsSkipped() + ", deferred " + r.groupsDeferred() + ", pages created "
                        + r.pagesCreated().size() + ", merged "
                        + r.pagesMerged().size() + ", promoted "
                        + r.pagesPromoted().size() + (r.aborted() ? ", ABORTED: " + r.abortReason() : ""));
    }

    private DreamCycle.Ports ports(BrainRef brain, long cycle, String fault) {
        String assertedBy = "agent:" + brain.agentId();
        return new DreamCycle.Ports() {
            @Override
            public List<DreamEpisode> collect(Instant since, int limit) {
                List<EpisodeFeedBean.Candidate> found =
                        feed.eligible(brain.tenantId(), brain.agentId(), since, config.importanceThreshold(), limit);
                List<DreamEpisode> episodes = new ArrayList<>(found.size());
                for (EpisodeFeedBean.Candidate c : found) {
                    episodes.add(new DreamEpisode(
                            c.episodeId(),
                            c.createdAt(),
                            c.category(),
                            c.relatedTools(),
                            c.situation(),
                            c.actionTaken(),
                            c.lesson(),
                            c.vector(),
                            c.turnRefs()));
                }
                return episodes;
            }

            @Override
            public DreamCycle.Distillation distill(List<DreamEpisode> group) {
                return distiller.distill(group);
            }

            @Override
            public PageWriteResult archive(DreamCycle.Distillation d) throws InterruptedException {
                PageWriteResult written;
                try {
                    written = writer.archive(brain, d.knowledge(), d.evidenceByStatement(), assertedBy, now());
                } catch (EJBException firstWriteRace) {
                    LOG.log(Level.FINE, "Brain page archive retried", firstWriteRace);
                    written = writer.archive(brain, d.knowledge(), d.evidenceByStatement(), assertedBy, now());
                }
                if (fault.startsWith("pause-after-archive:")) {
                    Thread.sleep(Long.parseLong(
                            fault.substring("pause-after-archive:".length()).strip()));
                }
                return written;
            }

            @Override
            public int reinforce(String pageId) {
                return writer.reinforce(brain, pageId, cycle);
            }

            @Override
            public void mark(List<String> episodeIds, String pageId) {
                if (fault.equals("fail-mark")) {
                    throw new IllegalStateException("injected fault " + fault + " after the archive of " + pageId);
                }
                feed.markConsolidated(brain.tenantId(), episodeIds, pageId, now());
            }

            @Override
            public boolean promote(String pageId) {
                try {
                    return writer.promote(brain, pageId, now());
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "Promotion of brain page " + pageId + " to the organisation failed", e);
                    return false;
                }
            }
        };
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
