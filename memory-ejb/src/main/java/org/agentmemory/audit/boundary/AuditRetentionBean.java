package org.agentmemory.audit.boundary;

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
import org.agentmemory.platform.cluster.ClusterLeases;
import org.agentmemory.platform.cluster.HousekeepingPeriods;
import org.agentmemory.platform.cluster.HousekeepingTimers;
import org.agentmemory.platform.config.Settings;

/**
 * The audit trail's retention (issue 32 item 5): deletes rows older than {@code memory.audit.retention-days} every
 * {@code memory.housekeeping.audit-retention-seconds}, by default daily at 03:17 UTC. Off when the retention is 0.
 * Each server keeps a non-persistent timer; one server of the cluster deletes per period ({@link ClusterLeases}, task
 * {@value HousekeepingSettings#AUDIT_RETENTION}).
 */
@Singleton
@Startup
@DependsOn("SchemaMigrationBean")
@LocalBean
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class AuditRetentionBean {

    private static final Logger LOG = Logger.getLogger(AuditRetentionBean.class.getName());

    /** Where in the day (UTC) the retention runs with a period of a day: 03:17. */
    static final Duration TIME_OF_DAY = Duration.ofHours(3).plusMinutes(17);

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Settings settings;

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
        HousekeepingTimers.arm(timers, period(), TIME_OF_DAY, "audit: retention");
    }

    private Duration period() {
        return periods.period(HousekeepingSettings.AUDIT_RETENTION);
    }

    /** The timer: deletes old rows unless the retention is off or another server did this period. */
    @Timeout
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void onTimer() {
        int days = settings.auditRetentionDays();
        if (days == 0) {
            return;
        }
        AuditRetentionBean self = context.getBusinessObject(AuditRetentionBean.class);
        leases.runOnce(HousekeepingSettings.AUDIT_RETENTION, period(), () -> self.deleteOlderThan(days))
                .filter(deleted -> deleted > 0)
                .ifPresent(deleted ->
                        LOG.info(() -> "Audit trail: " + deleted + " rows older than " + days + " days deleted"));
    }

    /**
     * @param days the retention, days, ≥ 1
     * @return how many rows older than that were deleted, in one transaction
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int deleteOlderThan(int days) {
        return em.createQuery("delete from AuditEntry a where a.occurredAt < :cutoff")
                .setParameter("cutoff", Instant.now().minus(Duration.ofDays(days)))
                .executeUpdate();
    }
}
