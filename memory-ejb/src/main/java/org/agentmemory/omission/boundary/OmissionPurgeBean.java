package org.agentmemory.omission.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;
import org.agentmemory.api.config.HousekeepingSettings;
import org.agentmemory.omission.control.OmissionStore;
import org.agentmemory.platform.cluster.ClusterLeases;
import org.agentmemory.platform.cluster.HousekeepingPeriods;
import org.agentmemory.platform.cluster.HousekeepingTimers;

/**
 * Deletes expired omissions every {@code memory.housekeeping.omission-purge-seconds} (default 10 minutes; spec §7.3
 * TTL). Reads already hide expired content, so the purge only reclaims space. Each server keeps a non-persistent timer;
 * one server of the cluster purges per period ({@link ClusterLeases}, task
 * {@value HousekeepingSettings#OMISSION_PURGE}).
 */
@Singleton
@Startup
@DependsOn("SchemaMigrationBean")
@LocalBean
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class OmissionPurgeBean {

    private static final Logger LOG = Logger.getLogger(OmissionPurgeBean.class.getName());

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Resource
    TimerService timers;

    @Resource
    SessionContext context;

    @EJB
    ClusterLeases leases;

    @Inject
    HousekeepingPeriods periods;

    @PostConstruct
    void arm() {
        HousekeepingTimers.arm(timers, period(), Duration.ZERO, "omission TTL purge");
    }

    private Duration period() {
        return periods.period(HousekeepingSettings.OMISSION_PURGE);
    }

    /** The timer: purges unless another server did this period. */
    @Timeout
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void onTimer() {
        OmissionPurgeBean self = context.getBusinessObject(OmissionPurgeBean.class);
        leases.runOnce(HousekeepingSettings.OMISSION_PURGE, period(), self::purge)
                .filter(removed -> removed > 0)
                .ifPresent(removed -> LOG.info(() -> "Purged " + removed + " expired omissions"));
    }

    /**
     * Deletes every omission expired by now, in one transaction.
     *
     * @return how many were deleted
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int purge() {
        return new OmissionStore(em).purgeExpired(Instant.now());
    }
}
