package org.agentmemory.episodic.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.logging.Logger;
import org.agentmemory.api.config.HousekeepingSettings;
import org.agentmemory.api.episodic.EpisodicMemory;
import org.agentmemory.platform.cluster.ClusterLeases;
import org.agentmemory.platform.cluster.HousekeepingPeriods;
import org.agentmemory.platform.cluster.HousekeepingTimers;

/**
 * Deletes expired episodes every {@code memory.housekeeping.episode-expiry-seconds} (default 15 minutes; spec §10.3
 * {@code cleanup_expired}). Reads and recall already leave expired episodes out, so the timer only reclaims space.
 * Each server keeps a non-persistent timer; one server of the cluster deletes per period ({@link ClusterLeases}, task
 * {@value HousekeepingSettings#EPISODE_EXPIRY}).
 */
@Singleton
@Startup
@DependsOn("SchemaMigrationBean")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class EpisodeExpiryBean {

    private static final Logger LOG = Logger.getLogger(EpisodeExpiryBean.class.getName());

    @EJB
    EpisodicMemory episodic;

    @Resource
    TimerService timers;

    @EJB
    ClusterLeases leases;

    @Inject
    HousekeepingPeriods periods;

    @PostConstruct
    void arm() {
        HousekeepingTimers.arm(timers, period(), Duration.ZERO, "episode TTL cleanup");
    }

    private Duration period() {
        return periods.period(HousekeepingSettings.EPISODE_EXPIRY);
    }

    /** The timer: deletes expired episodes (in a transaction of {@link EpisodicMemory}) unless another server did. */
    @Timeout
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void cleanup() {
        leases.runOnce(HousekeepingSettings.EPISODE_EXPIRY, period(), episodic::cleanupExpired)
                .filter(removed -> removed > 0)
                .ifPresent(removed -> LOG.info(() -> "Deleted " + removed + " expired episodes"));
    }
}
