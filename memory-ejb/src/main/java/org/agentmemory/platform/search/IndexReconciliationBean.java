package org.agentmemory.platform.search;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceUnit;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.hibernate.search.mapper.orm.Search;

/**
 * Makes the search indexes agree with the database after an unclean stop ({@code kill -9}, a crash, a power loss),
 * before the service takes its first request (docs/decisions/0004-durable-commits-and-index-reconciliation.md).
 *
 * <p>Why: every write commits its rows to the database first; its index writes follow and become durable at the
 * index's own commit, which on the embedded Lucene backend runs about once a second (Hibernate Search's
 * {@code io.commit_interval}). A process that dies in between leaves rows the index lacks (a turn that full-text
 * search cannot find, a vector the embedder stored that vector search does not see) and, for deletes, documents
 * whose rows are gone (a ghost that search still returns).
 *
 * <p>How: an {@link IndexStateMarker} beside the indexes says whether the last run closed them cleanly. Unless it
 * does, {@link IndexReconciliation} compares every index with its table and repairs the differences; a missing marker
 * (first start, an index directory deleted by hand, an index built before this check existed) counts as unclean, so
 * the indexes are then completed from the database. The marker then says "running" until {@link #stop()} has
 * flushed the indexes at a clean shutdown. After a clean stop nothing is compared.
 *
 * <p>The deployment completes only after this {@link Startup} singleton is constructed, and the beans that write to
 * the indexes in the background ({@link MessageEmbeddingBean}, {@link SearchReindexBean}) depend on it: nothing
 * writes to the indexes while they are compared, and those beans stop before the indexes are flushed at shutdown.
 * A reconciliation that fails is logged and leaves the service running on the database's truth;
 * {@code POST /api/v1/admin/reindex} then rebuilds the indexes.
 *
 * <p>Under outbox polling ({@link SearchCoordination}) nothing is compared: the outbox carries every committed
 * write to the index whichever server stopped, and how.
 */
@Singleton
@Startup
@DependsOn("SchemaMigrationBean")
@TransactionManagement(TransactionManagementType.BEAN)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class IndexReconciliationBean {

    private static final Logger LOG = Logger.getLogger(IndexReconciliationBean.class.getName());

    @PersistenceUnit(unitName = "memory")
    EntityManagerFactory emf;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Resource
    UserTransaction tx;

    private IndexStateMarker marker;

    @PostConstruct
    void reconcileAfterUncleanStop() {
        if (SearchCoordination.outboxPolling()) {
            // Every committed write left an event in the database's outbox in its own transaction; the event
            // processors of the servers index it whenever this one stopped, so there is nothing to compare.
            LOG.info("Search indexes coordinated through the outbox: no reconciliation at start-up");
            return;
        }
        marker = new IndexStateMarker(markerPath());
        boolean clean;
        try {
            clean = marker.stoppedCleanly();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Cannot read " + marker.file() + "; treating the last stop as unclean", e);
            clean = false;
        }
        if (!clean) {
            String reason = marker.exists()
                    ? "the last run did not stop cleanly"
                    : "no index state marker: first start, or a new index directory";
            try {
                IndexReconciliation.Outcome o = new IndexReconciliation(this::inTransaction, Search.mapping(emf)).run();
                LOG.log(
                        o.reindexed() + o.purged() > 0 ? Level.WARNING : Level.INFO,
                        () -> "Search indexes"
                                + " reconciled with the database (" + reason + "): " + o.documentsCompared()
                                + " documents compared, " + o.reindexed() + " indexed again, " + o.purged()
                                + " purged, in "
                                + o.millis() + " ms");
            } catch (RuntimeException e) {
                LOG.log(
                        Level.SEVERE,
                        "Reconciling the search indexes with the database failed (" + reason
                                + "); searches may miss committed writes or show deleted ones until POST /api/v1/admin/reindex"
                                + " rebuilds them",
                        e);
            }
        }
        try {
            marker.running();
        } catch (IOException e) {
            LOG.log(
                    Level.SEVERE,
                    "Cannot write or delete " + marker.file() + ": a crash of this run could leave the"
                            + " search indexes unreconciled",
                    e);
        }
    }

    /** At a clean shutdown: commits the indexes, then records that they hold every committed write. */
    @PreDestroy
    void stop() {
        if (marker == null) { // outbox polling: no marker, and events not indexed yet stay in the outbox
            return;
        }
        try {
            Search.mapping(emf).scope(Object.class).workspace().flush();
            marker.stoppedCleanlyNow();
        } catch (IOException | RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "Closing the search indexes cleanly failed; they are reconciled at the next start",
                    e);
        }
    }

    /**
     * Compares every index with its table now and repairs the differences (a tenant's reindex purges the documents
     * of deleted rows this way).
     *
     */
    public void reconcile() {
        IndexReconciliation.Outcome o = new IndexReconciliation(this::inTransaction, Search.mapping(emf)).run();
        LOG.info(() -> "Search indexes reconciled with the database: " + o.documentsCompared() + " documents compared, "
                + o.reindexed() + " indexed again, " + o.purged() + " purged");
    }

    private void inTransaction(java.util.function.Consumer<EntityManager> work) {
        try {
            tx.begin();
            try {
                work.accept(em);
                em.flush();
            } catch (RuntimeException e) {
                tx.rollback();
                throw e;
            }
            tx.commit();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("an index reconciliation transaction failed", e);
        }
    }

    /**
     * Beside the Lucene indexes, so that deleting the index directory also deletes the marker (the next start then
     * rebuilds the index from the database); with a cluster backend, in the server's data directory.
     */
    private Path markerPath() {
        Object root = emf.getProperties().get("hibernate.search.backend.directory.root");
        if (root != null && !ClusterIndexes.isCluster(emf.getProperties())) {
            return Path.of(root.toString(), IndexStateMarker.NAME);
        }
        String data = System.getProperty("jboss.server.data.dir", System.getProperty("java.io.tmpdir"));
        return Path.of(data, "agent-memory", IndexStateMarker.NAME);
    }
}
