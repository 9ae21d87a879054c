package org.agentmemory.search;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;

import org.hibernate.search.engine.backend.work.execution.DocumentCommitStrategy;
import org.hibernate.search.engine.backend.work.execution.DocumentRefreshStrategy;
import org.hibernate.search.mapper.orm.Search;
import org.hibernate.search.mapper.pojo.work.IndexingPlanSynchronizationStrategy;
import org.hibernate.search.mapper.pojo.work.SearchIndexingPlanExecutionReport;

/**
 * Deferred indexing for bulk writes (JSONL import): the transaction commits without waiting for its index
 * writes, which run in the search backend's own threads while the caller goes on with its next batch; each
 * write still forces a refresh when it is applied, and {@link #awaitAll(long)} waits for every write deferred
 * before it, after which all of them are searchable. Single writes keep the configured synchronisation
 * ({@code memory.search.synchronization}, {@code read-sync}: searchable when the call returns).
 *
 * <p>Durability is that of {@code read-sync}: rows are committed in the database first; an index write lost
 * in a crash is restored by the mass reindex ({@code POST /admin/reindex}).
 */
@ApplicationScoped
public class DeferredIndexing {

    private static final Logger LOG = Logger.getLogger(DeferredIndexing.class.getName());

    private final PendingWrites pending = new PendingWrites();

    private final IndexingPlanSynchronizationStrategy strategy = context -> {
        context.documentCommitStrategy(DocumentCommitStrategy.NONE);
        context.documentRefreshStrategy(DocumentRefreshStrategy.FORCE);
        context.indexingFutureHandler(future -> pending.track(future, DeferredIndexing::failed));
    };

    /**
     * Makes the current transaction's index writes deferred.
     *
     * @param em the transaction's entity manager
     */
    public void defer(EntityManager em) {
        Search.session(em).indexingPlanSynchronizationStrategy(strategy);
    }

    /**
     * Waits for every index write deferred before this call.
     *
     * @param timeoutMs the longest wait, in milliseconds
     * @return how many of them failed or had not completed in time (0 normally)
     */
    public int awaitAll(long timeoutMs) {
        try {
            int failures = pending.awaitAll(timeoutMs);
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
        report.throwable().ifPresent(t -> LOG.log(Level.WARNING, "A deferred index write failed for "
                + report.failingEntities().size() + " entities", t));
        return report.throwable().isPresent();
    }
}
