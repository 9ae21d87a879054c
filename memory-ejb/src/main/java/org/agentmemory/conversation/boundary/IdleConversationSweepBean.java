package org.agentmemory.conversation.boundary;

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
import java.time.Instant;
import java.util.logging.Logger;
import org.agentmemory.api.config.HousekeepingSettings;
import org.agentmemory.platform.cluster.ClusterLeases;
import org.agentmemory.platform.cluster.HousekeepingPeriods;
import org.agentmemory.platform.cluster.HousekeepingTimers;
import org.agentmemory.platform.config.Settings;

/**
 * Enforces {@code memory.conversation.idle-ttl-seconds} (issue 34 item 5): every
 * {@code memory.housekeeping.idle-conversations-seconds} (default 10 minutes), deletes the conversations of every
 * tenant whose last write is older than the time to live, in batches ({@link ConversationDeletionBean}). Off (the
 * default) when the setting is 0. Each server keeps a non-persistent timer; one server of the cluster sweeps per
 * period ({@link ClusterLeases}, task {@value HousekeepingSettings#IDLE_CONVERSATIONS}). The sweep would also be safe
 * on several servers at once (each batch skips rows another server or a writer holds, and a conversation written since
 * it was found idle is kept), but would do its reads twice.
 */
@Singleton
@Startup
@DependsOn("SchemaMigrationBean")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class IdleConversationSweepBean {

    private static final Logger LOG = Logger.getLogger(IdleConversationSweepBean.class.getName());

    @EJB
    ConversationDeletionBean deletions;

    @Inject
    Settings settings;

    @Resource
    TimerService timers;

    @EJB
    ClusterLeases leases;

    @Inject
    HousekeepingPeriods periods;

    @PostConstruct
    void arm() {
        HousekeepingTimers.arm(timers, period(), Duration.ZERO, "conversation idle TTL");
    }

    private Duration period() {
        return periods.period(HousekeepingSettings.IDLE_CONVERSATIONS);
    }

    /** The timer: sweeps unless the time to live is off or another server swept this period. */
    @Timeout
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void sweep() {
        Duration ttl = settings.conversationIdleTtl();
        if (ttl == null) {
            return;
        }
        leases.runOnce(
                        HousekeepingSettings.IDLE_CONVERSATIONS,
                        period(),
                        () -> deletions.deleteIdleEverywhere(Instant.now().minus(ttl)))
                .filter(deleted -> deleted > 0)
                .ifPresent(deleted -> LOG.info(
                        () -> "Deleted " + deleted + " conversations idle for more than " + ttl.toSeconds() + " s"));
    }
}
