package org.agentmemory.platform.search;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.hibernate.search.engine.backend.work.execution.DocumentCommitStrategy;
import org.hibernate.search.engine.backend.work.execution.DocumentRefreshStrategy;
import org.hibernate.search.mapper.orm.Search;
import org.hibernate.search.mapper.pojo.work.IndexingPlanSynchronizationStrategy;
import org.hibernate.search.mapper.pojo.work.SearchIndexingPlanExecutionReport;

/**
 * Deferred indexing for bulk writes (JSONL import): the transaction commits without waiting for its index
 * writes, which run in the search backend's own threads while the caller goes on with its next batch; the writes
 * do not refresh the index batch by batch (on Lucene each refresh cuts a small segment that merges then rewrite),
 * and {@link #awaitAll(EntityManager, long)} waits for every write deferred before it, then refreshes the indexes
 * once, after which all of them are searchable. Single writes keep the configured synchronisation
 * ({@code memory.search.synchronization}, {@code read-sync}: searchable when the call returns).
 *
 * <p>Durability is that of {@code read-sync}: rows are committed in the database first; an index write lost
 * in a crash is restored at the next start ({@code IndexReconciliationBean}), one that failed while the server ran
 * by the mass reindex ({@code POST /admin/reindex}).
 */
@ApplicationScoped
public class DeferredIndexing {

    private static final Logger LOG = Logger.getLogger(DeferredIndexing.class.getName());

    private final PendingWrites pending = new PendingWrites();

    /** Writes applied to the index, no commit or refresh forced: deferred writes, and handed-off ones on Lucene. */
    private static final IndexingPlanSynchronizationStrategy APPLIED_ONLY = context -> {
        context.documentCommitStrategy(DocumentCommitStrategy.NONE);
        context.documentRefreshStrategy(DocumentRefreshStrategy.NONE);
    };

    private final IndexingPlanSynchronizationStrategy strategy = context -> {
        APPLIED_ONLY.apply(context);
        context.indexingFutureHandler(future -> pending.track(future, DeferredIndexing::failed));
    };

    /**
     * Makes the current transaction's index writes deferred.
     *
     * @param em the transaction's entity manager
     */
    public void defer(EntityManager em) {
        if (!SearchCoordination.outboxPolling()) { // the outbox defers every write already
            Search.session(em).indexingPlanSynchronizationStrategy(strategy);
        }
    }

    /**
     * The synchronization writes are configured with ({@code memory.search.synchronization}, read as persistence.xml
     * reads it); {@code null} for {@code async}.
     */
    private static final String SYNCHRONIZATION = System.getProperty("memory.search.synchronization", "read-sync");

    private static final IndexingPlanSynchronizationStrategy CONFIGURED = switch (SYNCHRONIZATION) {
        case "write-sync" -> IndexingPlanSynchronizationStrategy.writeSync();
        case "sync" -> IndexingPlanSynchronizationStrategy.sync();
        case "async" -> null;
        default -> IndexingPlanSynchronizationStrategy.readSync();
    };

    /**
     * The synchronization of writes handed off ({@link #handOff}): the configured one, except {@code read-sync} on the
     * embedded Lucene backend, which there only waits for the writes to be applied and forces no refresh; {@code null}
     * for {@code async}.
     *
     * <p>Why: Hibernate Search's Lucene backend refreshes its reader before a search whenever the index writer
     * changed ({@code hibernate.search.backend.io.refresh_interval}, 0 by default, and not set here), so a write that
     * was applied is searchable by the next search in this server, refreshed or not. Forcing the refresh after every
     * group-committed batch of a few turns opened a reader and cut a small segment (which merges then rewrite) for
     * each batch, searched or not, while callers waited for it. OpenSearch refreshes on its own schedule, so there
     * {@code read-sync} keeps its forced refresh.
     */
    static final IndexingPlanSynchronizationStrategy HANDED_OFF = SearchCoordination.outboxPolling()
            ? null // no synchronization under outbox polling (SearchCoordination)
            : handedOff(SYNCHRONIZATION, VectorFields.configuredBackend(), CONFIGURED);

    /**
     * @param synchronization the configured synchronization's name
     * @param backend         the configured backend's name
     * @param configured      the configured synchronization ({@code null} for {@code async})
     * @return the synchronization of handed-off writes (see {@link #HANDED_OFF})
     */
    static IndexingPlanSynchronizationStrategy handedOff(
            String synchronization, String backend, IndexingPlanSynchronizationStrategy configured) {
        return "lucene".equals(backend) && "read-sync".equals(synchronization) ? APPLIED_ONLY : configured;
    }

    /**
     * Lets the current transaction commit without its thread waiting for the index writes, and hands the future of
     * those writes (applied with {@link #HANDED_OFF}'s commit and refresh strategies) to {@code handler}
     * at commit instead, so that others can wait for it: group-committed writes free their writer for the next
     * batch at once, and each caller waits for its own turns to become searchable. Nothing changes under
     * {@code async}, which waits for nothing anyway, nor under outbox polling ({@link SearchCoordination}). The handler is not called when the transaction rolls back or
     * writes nothing to the index.
     *
     * @param em      the transaction's entity manager
     * @param handler receives the future of the transaction's index writes, in the committing thread
     */
    public void handOff(
            EntityManager em,
            Consumer<? super CompletableFuture<? extends SearchIndexingPlanExecutionReport>> handler) {
        if (HANDED_OFF != null) {
            Search.session(em).indexingPlanSynchronizationStrategy(context -> {
                HANDED_OFF.apply(context);
                context.indexingFutureHandler(handler);
            });
        }
    }

    /**
     * Waits for index writes handed off by {@link #handOff}; a failure is logged, not thrown (the rows are committed,
     * and {@code POST /admin/reindex} restores their index entries), as the configured synchronization does.
     *
     * @param write the future handed off, or {@code null} (nothing to wait for)
     * @throws InterruptedException when interrupted while waiting
     */
    public static void await(CompletableFuture<? extends SearchIndexingPlanExecutionReport> write)
            throws InterruptedException {
        if (write == null) {
            return;
        }
        try {
            failed(write.get());
        } catch (java.util.concurrent.ExecutionException e) {
            LOG.log(
                    Level.WARNING,
                    "An index write failed; the rows are stored, and POST /admin/reindex restores their"
                            + " index entries",
                    e.getCause());
        }
    }

    /**
     * Waits for every index write deferred before this call, then refreshes the search indexes, so that all of them
     * are searchable when it returns.
     *
     * @param em        an entity manager of the memory's persistence unit (for the search session)
     * @param timeoutMs the longest wait, in milliseconds
     * @return how many of them failed or had not completed in time (0 normally); a failed refresh is logged only
     */
    public int awaitAll(EntityManager em, long timeoutMs) {
        if (SearchCoordination.outboxPolling()) {
            return 0; // nothing was deferred here: the event processors index the outbox's events
        }
        try {
            int failures = pending.awaitAll(timeoutMs);
            try {
                Search.session(em).workspace().refresh();
            } catch (RuntimeException e) {
                // The writes are applied; nothing needs to be reindexed, they show once the index is refreshed.
                LOG.log(
                        Level.WARNING,
                        "Refreshing the search indexes after deferred writes failed; the writes become"
                                + " searchable at the index's next refresh",
                        e);
            }
            if (failures > 0) {
                LOG.warning(failures + " deferred index writes failed or did not finish within " + timeoutMs
                        + " ms; the rows are stored, and POST /admin/reindex restores their index entries");
            }
            return failures;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.log(Level.WARNING, "Interrupted while waiting for deferred index writes", e);
            return pending.pending();
        }
    }

    private static boolean failed(SearchIndexingPlanExecutionReport report) {
        report.throwable()
                .ifPresent(t -> LOG.log(
                        Level.WARNING,
                        "A deferred index write failed for "
                                + report.failingEntities().size() + " entities",
                        t));
        return report.throwable().isPresent();
    }
}
