package org.agentmemory.recall.boundary;

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
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.embedding.BackgroundPriority;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.embedding.SplitEmbedding;
import org.agentmemory.platform.load.ForegroundLoad;
import org.agentmemory.platform.load.ForegroundRequests;
import org.agentmemory.recall.control.MessageIndex;

/**
 * The background embedder of conversation messages ({@code memory.recall.embedding=background}, the default):
 * it gives vectors to messages that were written without one, up to {@value #BATCH} per transaction, so turn
 * writes never wait for the embedding model and vector/hybrid recall sees a new message about a second later.
 *
 * <p>One non-persistent single-action timer re-armed after each run: {@value #IDLE_DELAY_MS} ms after a run that
 * found fewer than {@value #BATCH} messages, {@value #BACKLOG_DELAY_MS} ms after a full batch (a backlog drains
 * without waiting a second per batch). Runs never overlap, so nothing is skipped or logged as overlapping. Safe
 * on every server of a cluster, with no lease: rows another embedder holds are skipped ({@code SKIP LOCKED}), and a
 * row another embedder committed meanwhile no longer matches once locked (PostgreSQL checks the condition again on
 * the committed row), so no message is embedded by two servers. Each server counts the messages it embedded
 * ({@code GET /admin/housekeeping}, {@code messagesEmbedded}).
 *
 * <p>Embedding yields to clients: while business calls are in flight (or ended less than
 * {@value ForegroundLoad#QUIET_MS} ms ago, see {@link ForegroundRequests}) a run embeds at most {@value #BUSY_BATCH}
 * messages and the next run waits long enough that embedding keeps at most {@code memory.embedding.busy-share} of
 * one core, and a fifth of that while the requests saturate the machine (as many in flight on average as there are
 * cores, {@link ForegroundLoad#busyShare}), looking at the load every {@value #BUSY_LOOK_MS} ms meanwhile, so that a
 * pause computed under load ends when the load does; vectors then lag behind a write burst and catch up at full
 * speed once it ends, on every core: a quiet run (new messages, and messages re-embedded after a model change)
 * splits its batch over every core ({@link SplitEmbedding}). The inference itself runs on threads of the lowest
 * CPU priority ({@link BackgroundPriority}; with the default one ONNX Runtime thread per call), so that a request
 * arriving in the middle of a batch gets a core at once instead of at the next run.
 *
 * <p>After a change of {@code memory.embedding.message-model} or {@code memory.embedding.model}, runs with room left
 * re-embed the messages and episodes whose
 * vector came from another model, newest first, until none is left; meanwhile vector recall of episodes leaves them
 * out (their vectors cannot be compared with the new model's) and messages count as pending.
 */
@Singleton
@Startup
@jakarta.ejb.DependsOn("IndexReconciliationBean") // no vector is indexed while the indexes are compared
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class MessageEmbeddingBean {

    /** Messages embedded per run (one transaction) while the service is quiet. */
    static final int BATCH = 128;
    /** Messages embedded per run while foreground requests are being served (≈ 80 ms of CPU with the default model). */
    static final int BUSY_BATCH = 16;
    /** Pause after a run that emptied the queue, ms. */
    static final long IDLE_DELAY_MS = 1_000;
    /** Pause after a full batch, ms. */
    static final long BACKLOG_DELAY_MS = 1;
    /**
     * Longest wait between looks at the load while a busy pause lasts, ms: once the service is quiet, catch-up
     * starts within this time, not at the end of a pause computed while it was busy.
     */
    static final long BUSY_LOOK_MS = 500;
    /** Longest pause after failed runs, ms: failures back off from {@value #IDLE_DELAY_MS} ms, doubling. */
    static final long MAX_FAILURE_DELAY_MS = 60_000;

    /** Runs failed in a row (only the timer's thread touches it). */
    private int failuresInARow;

    /**
     * When ({@link System#nanoTime}) the pause after the last busy batch ends: no batch runs before then while the
     * service stays busy (only the timer's thread touches it).
     */
    private long busyPauseEnd = System.nanoTime();

    /** The foreground load when the last pause was computed (only the timer's thread touches it). */
    private ForegroundLoad.Sample loadAtLastPause = ForegroundRequests.LOAD.sample();

    private static final Logger LOG = Logger.getLogger(MessageEmbeddingBean.class.getName());

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Settings settings;

    /** Counts the messages this server embedded, for {@code GET /admin/housekeeping}. */
    @Inject
    org.agentmemory.platform.cluster.ServerWork serverWork;

    /** Re-embeds episodes after a model change, in this bean's transactions. */
    @jakarta.ejb.EJB
    org.agentmemory.episodic.boundary.EpisodeWriterBean episodeWriter;

    @Resource
    TimerService timers;

    /**
     * Runs the parts of a quiet batch after the first (the first runs on the timer's thread) when the model runs
     * ONNX Runtime threads of its own ({@code memory.embedding.threads} other than 1).
     */
    @Resource
    jakarta.enterprise.concurrent.ManagedExecutorService executor;

    /** Makes the threads of {@link #background}. */
    @Resource
    jakarta.enterprise.concurrent.ManagedThreadFactory threadFactory;

    /**
     * One thread per core at the lowest CPU priority ({@link BackgroundPriority}): with one ONNX Runtime thread per
     * call ({@code memory.embedding.threads} = 1, the default) every batch is embedded here while the timer's
     * thread waits, so that vectors are computed on cores that requests leave idle. With more ONNX Runtime threads
     * per call the inference runs on ONNX Runtime's own threads, which keep the priority of the thread that loaded
     * the model, and the batch stays on the timer's thread as before.
     */
    private java.util.concurrent.ExecutorService background;

    @Resource
    SessionContext context;

    /** Whether rows embedded by another model may remain (true at start, false once a run finds none). */
    private volatile boolean otherModelsLeft = true;

    @PostConstruct
    void start() {
        background = java.util.concurrent.Executors.newFixedThreadPool(
                Runtime.getRuntime().availableProcessors(), BackgroundPriority.lowered(threadFactory));
        arm(IDLE_DELAY_MS);
    }

    @jakarta.annotation.PreDestroy
    void stop() {
        background.shutdownNow();
    }

    /**
     * One run: embeds a batch of new messages in its own transaction; with room left in the batch, re-embeds
     * messages and episodes another model embedded; then re-arms the timer whatever happened (a failed batch rolls
     * back, its rows stay as they were until the next run).
     */
    @Timeout
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void run() {
        long delay = IDLE_DELAY_MS;
        boolean busy = ForegroundRequests.LOAD.busy();
        long pauseLeft = busyPauseEnd - System.nanoTime();
        if (busy && pauseLeft > 0) {
            // Still pausing for memory.embedding.busy-share, and the service is still busy: look again soon.
            arm(ForegroundLoad.lookAgainMillis(pauseLeft, BUSY_LOOK_MS));
            return;
        }
        int batch = busy ? BUSY_BATCH : BATCH;
        long started = System.nanoTime();
        try {
            MessageEmbeddingBean self = context.getBusinessObject(MessageEmbeddingBean.class);
            int done = self.embedBatch(batch, !busy);
            serverWork.embedded(done); // committed: embedBatch ran in a transaction of its own
            if (done < batch && otherModelsLeft) {
                int stale = self.reembedBatch(batch - done, !busy);
                if (stale == 0) {
                    otherModelsLeft = false; // checked again at the next start
                } else {
                    LOG.fine(() -> "Re-embedded " + stale + " messages/episodes with "
                            + settings.messageEmbeddingModel().name() + " / "
                            + settings.embeddingModel().name());
                }
                done += stale;
            }
            if (done >= batch) {
                delay = BACKLOG_DELAY_MS;
                if (busy || ForegroundRequests.LOAD.busy()) {
                    long ended = System.nanoTime();
                    ForegroundLoad.Sample load = ForegroundRequests.LOAD.sample();
                    double share = ForegroundLoad.busyShare(
                            settings.embeddingBusyShare(),
                            ForegroundLoad.concurrency(loadAtLastPause, load),
                            Runtime.getRuntime().availableProcessors());
                    loadAtLastPause = load;
                    long pause = ForegroundLoad.busyPauseMillis(ended - started, share);
                    busyPauseEnd = ended + pause * 1_000_000L;
                    delay = ForegroundLoad.lookAgainMillis(pause * 1_000_000L, BUSY_LOOK_MS);
                }
            }
            failuresInARow = 0;
        } catch (Throwable e) { // NOSONAR: whatever fails, the chain of runs must go on (finally re-arms once)
            // The messages stay findable by full text; the next run tries again, backing off (1 s, 2 s, … 60 s)
            // so that a lasting failure (e.g. a model that cannot load) neither spins nor floods the log: the
            // stack trace is logged on the first failure of a streak, then one line per failure.
            failuresInARow++;
            delay = failureDelayMillis(failuresInARow);
            if (failuresInARow == 1) {
                LOG.log(Level.WARNING, "Embedding conversation messages failed; retrying with back-off", e);
            } else {
                LOG.warning("Embedding conversation messages failed again (" + failuresInARow
                        + " in a row, next try in " + delay + " ms): " + e);
            }
        } finally {
            arm(delay);
        }
    }

    /**
     * @param max   at most this many messages
     * @param quiet whether the service is quiet: the batch is then embedded on every core
     *              ({@link #messageModel}), otherwise on this thread only
     * @return how many messages were taken from the queue (embedded, or marked as having no vector)
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int embedBatch(int max, boolean quiet) {
        int embedded = MessageIndex.embedPending(em, messageModel(quiet), max);
        if (embedded > 0) {
            LOG.fine(() -> "Embedded " + embedded + " conversation messages");
        }
        return embedded;
    }

    /**
     * @param max   at most this many rows
     * @param quiet whether the service is quiet: the messages are then embedded on every core, as in
     *              {@link #embedBatch}
     * @return how many messages and episodes embedded by another model were embedded again
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int reembedBatch(int max, boolean quiet) {
        int messages = MessageIndex.reembedOtherModels(em, messageModel(quiet), max);
        int episodes = messages < max ? episodeWriter.reembedOtherModels(max - messages) : 0;
        return messages + episodes;
    }

    /**
     * The model of conversation messages for a run. With one ONNX Runtime thread per call (the default), every run
     * embeds on {@link #background}'s threads of lowest priority: split over every core
     * ({@link SplitEmbedding#callers} parts) while the service is quiet, one thread otherwise. With more ONNX
     * Runtime threads per call: split over the timer's thread and the managed executor while quiet, the timer's
     * thread alone otherwise.
     */
    private EmbeddingModel messageModel(boolean quiet) {
        EmbeddingModel model = settings.messageEmbeddingModel();
        int parts = quiet
                ? SplitEmbedding.callers(Runtime.getRuntime().availableProcessors(), settings.embeddingThreads())
                : 1;
        if (settings.embeddingThreads() == 1) {
            return new SplitEmbedding(model, background, parts, false);
        }
        return quiet ? new SplitEmbedding(model, executor, parts) : model;
    }

    /**
     * @param failuresInARow failed runs in a row, ≥ 1
     * @return the pause before the next run, ms: {@value #IDLE_DELAY_MS} doubled per further failure, at most
     *         {@value #MAX_FAILURE_DELAY_MS}
     */
    static long failureDelayMillis(int failuresInARow) {
        return Math.min(MAX_FAILURE_DELAY_MS, IDLE_DELAY_MS << Math.min(Math.max(failuresInARow, 1) - 1, 16));
    }

    private void arm(long delayMs) {
        try {
            timers.createSingleActionTimer(delayMs, new TimerConfig("conversation message embedding", false));
        } catch (IllegalStateException | jakarta.ejb.EJBException e) {
            LOG.log(Level.WARNING, "Embedding timer not re-armed (expected only while the application stops)", e);
        }
    }
}
