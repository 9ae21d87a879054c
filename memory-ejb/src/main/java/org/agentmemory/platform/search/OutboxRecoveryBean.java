package org.agentmemory.platform.search;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Brings back the index writes of a search engine outage (issue 36 item 3, decision 0020): under outbox polling an
 * event whose index write kept failing is aborted by Hibernate Search and would never be indexed; every
 * {@code memory.search.outbox.recovery-seconds} (default 30) this bean asks the search cluster whether it answers
 * and, when it does, makes the aborted events pending again, so that the event processors index them. Every server
 * runs it; two servers reprocessing at once set the same events pending once more, which indexes them no more than
 * once each (a document is written by entity id). Nothing runs without outbox polling.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class OutboxRecoveryBean {

    private static final Logger LOG = Logger.getLogger(OutboxRecoveryBean.class.getName());

    /** The system property with the period, seconds. */
    static final String PERIOD_PROPERTY = "memory.search.outbox.recovery-seconds";

    @PersistenceUnit(unitName = "memory")
    EntityManagerFactory emf;

    @Resource
    TimerService timers;

    private final AtomicLong reprocessed = new AtomicLong();
    private volatile long aborted;

    @PostConstruct
    void arm() {
        if (!SearchCoordination.outboxPolling()) {
            return;
        }
        long periodMs = Duration.ofSeconds(Math.max(1, Long.getLong(PERIOD_PROPERTY, 30)))
                .toMillis();
        timers.createIntervalTimer(periodMs, periodMs, new TimerConfig("outbox: reprocess aborted events", false));
    }

    /** Reprocesses the aborted events when the search cluster answers; failures are logged, the next period retries. */
    @Timeout
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void recover() {
        try {
            long count = OutboxEvents.aborted(emf);
            aborted = count;
            if (count == 0) {
                return;
            }
            Object uris = emf.getProperties().get(ClusterIndexes.BACKEND_URIS);
            if (!ClusterIndexes.answers(uris == null ? "" : uris.toString(), Duration.ofSeconds(5))) {
                return; // still down: the events wait
            }
            int made = OutboxEvents.reprocessAborted(emf);
            reprocessed.addAndGet(made);
            LOG.info(() -> made + " aborted outbox events made pending again: the search engine answers");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Reprocessing the outbox's aborted events failed; retried next period", e);
        }
    }

    /** @return the aborted events counted at the last period (0 without outbox polling) */
    public long abortedAtLastCheck() {
        return aborted;
    }

    /** @return how many aborted events this server made pending again since it started */
    public long reprocessedSinceStart() {
        return reprocessed.get();
    }
}
