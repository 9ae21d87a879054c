package org.agentmemory.recall.boundary;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import org.agentmemory.config.Settings;
import org.agentmemory.recall.control.MessageIndex;

/**
 * The background embedder of conversation messages ({@code memory.recall.embedding=background}, the default):
 * it gives vectors to messages that were written without one, up to {@value #BATCH} per transaction, so turn
 * writes never wait for the embedding model and vector/hybrid recall sees a new message about a second later.
 *
 * <p>One non-persistent single-action timer re-armed after each run: {@value #IDLE_DELAY_MS} ms after a run that
 * found fewer than {@value #BATCH} messages, {@value #BACKLOG_DELAY_MS} ms after a full batch (a backlog drains
 * without waiting a second per batch). Runs never overlap, so nothing is skipped or logged as overlapping. Safe
 * on every server of a cluster: rows another embedder holds are skipped ({@code SKIP LOCKED}).
 *
 * <p>At start, messages whose vector came from another model than the configured one ({@code memory.embedding.model})
 * are queued again, so a model change re-embeds the history in the background instead of mixing two models'
 * vectors in one index for good.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class MessageEmbeddingBean {

    /** Messages embedded per run (one transaction). */
    static final int BATCH = 128;
    /** Pause after a run that emptied the queue, ms. */
    static final long IDLE_DELAY_MS = 1_000;
    /** Pause after a full batch, ms. */
    static final long BACKLOG_DELAY_MS = 1;

    private static final Logger LOG = Logger.getLogger(MessageEmbeddingBean.class.getName());

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Settings settings;

    @Resource
    TimerService timers;

    @Resource
    SessionContext context;

    @PostConstruct
    void start() {
        arm(IDLE_DELAY_MS);
    }

    /**
     * One run: embeds a batch in its own transaction, then re-arms the timer whatever happened (a failed batch
     * rolls back, its messages stay full-text only until the next run).
     */
    @Timeout
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void run() {
        long delay = IDLE_DELAY_MS;
        try {
            MessageEmbeddingBean self = context.getBusinessObject(MessageEmbeddingBean.class);
            if (!requeued) {
                int requeuedCount = self.requeueOtherModels();
                requeued = true;
                if (requeuedCount > 0) {
                    LOG.info(() -> requeuedCount + " conversation messages were embedded by another model than "
                            + settings.embeddingModel().name() + "; they are embedded again in the background");
                }
            }
            int embedded = self.embedBatch();
            if (embedded >= BATCH) {
                delay = BACKLOG_DELAY_MS;
            }
        } catch (RuntimeException | LinkageError e) {
            // The messages stay findable by full text; the next run tries again.
            LOG.log(Level.WARNING, "Embedding conversation messages failed", e);
        } finally {
            arm(delay);
        }
    }

    private volatile boolean requeued;

    /**
     * @return how many messages were taken from the queue (embedded, or marked as having no vector)
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int embedBatch() {
        int embedded = MessageIndex.embedPending(em, settings.embeddingModel(), BATCH);
        if (embedded > 0) {
            LOG.fine(() -> "Embedded " + embedded + " conversation messages");
        }
        return embedded;
    }

    /**
     * @return how many messages were queued again because another model embedded them
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int requeueOtherModels() {
        return MessageIndex.requeueOtherModels(em, settings.embeddingModel().name());
    }

    private void arm(long delayMs) {
        try {
            timers.createSingleActionTimer(delayMs, new TimerConfig("conversation message embedding", false));
        } catch (IllegalStateException | jakarta.ejb.EJBException e) {
            LOG.log(Level.FINE, "Embedding timer not re-armed (the application is stopping)", e);
        }
    }
}
