package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.hibernate.search.engine.backend.work.execution.DocumentCommitStrategy;
import org.hibernate.search.engine.backend.work.execution.DocumentRefreshStrategy;
import org.hibernate.search.engine.backend.work.execution.OperationSubmitter;
import org.hibernate.search.engine.reporting.FailureHandler;
import org.hibernate.search.mapper.pojo.work.IndexingPlanSynchronizationStrategy;
import org.hibernate.search.mapper.pojo.work.IndexingPlanSynchronizationStrategyConfigurationContext;
import org.hibernate.search.mapper.pojo.work.SearchIndexingPlanExecutionReport;
import org.junit.jupiter.api.Test;

/**
 * Which commit and refresh a handed-off write (a group-committed {@code addTurn} batch) asks of the backend. That a
 * write applied without a refresh is searchable when the call returns is checked on real Lucene indexes by
 * {@code ConversationRecallIT.concurrentlyAddedTurnsAreSearchableWhenTheirCallReturns}.
 */
class DeferredIndexingTest {

    /** Records what a strategy configures. */
    private static final class Recorded implements IndexingPlanSynchronizationStrategyConfigurationContext {
        DocumentCommitStrategy commit;
        DocumentRefreshStrategy refresh;

        @Override
        public void documentCommitStrategy(DocumentCommitStrategy strategy) {
            commit = strategy;
        }

        @Override
        public void documentRefreshStrategy(DocumentRefreshStrategy strategy) {
            refresh = strategy;
        }

        @Override
        public void indexingFutureHandler(
                Consumer<? super CompletableFuture<? extends SearchIndexingPlanExecutionReport>> handler) {}

        @Override
        public FailureHandler failureHandler() {
            return null;
        }

        @Override
        public void operationSubmitter(OperationSubmitter submitter) {}
    }

    private static Recorded apply(IndexingPlanSynchronizationStrategy strategy) {
        Recorded recorded = new Recorded();
        strategy.apply(recorded);
        return recorded;
    }

    @Test
    void readSyncOnLuceneWaitsForTheWriteButForcesNoRefresh() {
        Recorded r = apply(
                DeferredIndexing.handedOff("read-sync", "lucene", IndexingPlanSynchronizationStrategy.readSync()));
        assertThat(r.commit).isEqualTo(DocumentCommitStrategy.NONE);
        assertThat(r.refresh).isEqualTo(DocumentRefreshStrategy.NONE);
    }

    @Test
    void openSearchAndTheOtherSynchronizationsKeepTheirOwn() {
        // OpenSearch is Hibernate Search's elasticsearch backend (memory-it/opensearch).
        IndexingPlanSynchronizationStrategy readSync = IndexingPlanSynchronizationStrategy.readSync();
        assertThat(DeferredIndexing.handedOff("read-sync", "elasticsearch", readSync))
                .isSameAs(readSync);
        Recorded openSearch = apply(DeferredIndexing.handedOff("read-sync", "elasticsearch", readSync));
        assertThat(openSearch.refresh).isEqualTo(DocumentRefreshStrategy.FORCE);

        IndexingPlanSynchronizationStrategy writeSync = IndexingPlanSynchronizationStrategy.writeSync();
        assertThat(DeferredIndexing.handedOff("write-sync", "lucene", writeSync))
                .isSameAs(writeSync);
        IndexingPlanSynchronizationStrategy sync = IndexingPlanSynchronizationStrategy.sync();
        assertThat(DeferredIndexing.handedOff("sync", "lucene", sync)).isSameAs(sync);
        assertThat(DeferredIndexing.handedOff("async", "lucene", null)).isNull();
    }

    @Test
    void byDefaultLuceneAndReadSyncHandedOffWritesForceNoRefresh() {
        Recorded r = apply(DeferredIndexing.HANDED_OFF);
        assertThat(r.refresh).isEqualTo(DocumentRefreshStrategy.NONE);
        assertThat(r.commit).isEqualTo(DocumentCommitStrategy.NONE);
    }
}
