package org.agentmemory.platform.search;

import jakarta.annotation.Resource;
import jakarta.ejb.Asynchronous;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.LocalBean;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.recall.ReindexStatus;
import org.hibernate.search.mapper.orm.Search;
import org.hibernate.search.mapper.pojo.massindexing.MassIndexingMonitor;

/**
 * Rebuilds the search indexes (every indexed entity type: conversation messages, episodes) from the database with Hibernate Search's
 * mass indexer, in the background, one run at a time per server, reporting progress. Embeddings are read from
 * the rows: no model runs. The run purges each index first, then writes every row; searches keep answering
 * meanwhile (from a partially rebuilt index until it finishes).
 *
 * <p>Bean-managed concurrency: the status is read while a run holds the bean.
 */
@Singleton
@jakarta.ejb.Startup
@jakarta.ejb.DependsOn("IndexReconciliationBean") // no merge or reindex while the indexes are compared
@LocalBean
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class SearchReindexBean {

    private static final Logger LOG = Logger.getLogger(SearchReindexBean.class.getName());

    @PersistenceUnit(unitName = "memory")
    EntityManagerFactory emf;

    @Resource
    SessionContext context;

    @Resource
    jakarta.ejb.TimerService timers;

    @jakarta.inject.Inject
    org.agentmemory.platform.config.Settings settings;

    /** The attribute every tenant-owned indexed entity names its tenant by. */
    static final String TENANT_ATTRIBUTE = "tenantId";

    @jakarta.ejb.EJB
    IndexReconciliationBean reconciliation;

    private static final String NIGHTLY = "nightly search index merge";
    private static final String QUIET_CHECK = "search index merge after a bulk write";
    /** A merge's result in its lease row: started (it runs on in the background), or not (another run is going on). */
    private static final String STARTED = "merge started";

    private static final String NOT_STARTED = "not started: a reindex or merge is running";

    @jakarta.ejb.EJB
    org.agentmemory.platform.cluster.ClusterLeases leases;

    @jakarta.inject.Inject
    org.agentmemory.platform.cluster.HousekeepingPeriods periods;

    /**
     * Arms the nightly merge ({@code memory.search.merge-hour}, every
     * {@code memory.housekeeping.search-merge-seconds} from that hour) and the check for a merge after a bulk write
     * ({@code memory.search.quiet-merge-writes}, every {@code memory.housekeeping.search-quiet-check-seconds}):
     * non-persistent timers on every server. On embedded Lucene each server merges its own index; on an
     * OpenSearch/Elasticsearch cluster, whose indexes every server shares, one server merges per period
     * ({@link #onTimer}).
     */
    @jakarta.annotation.PostConstruct
    void armTimers() {
        int hour = settings.searchMergeHour();
        if (hour >= 0) {
            org.agentmemory.platform.cluster.HousekeepingTimers.arm(
                    timers,
                    periods.period(org.agentmemory.api.config.HousekeepingSettings.SEARCH_MERGE),
                    java.time.Duration.ofHours(hour),
                    NIGHTLY);
        }
        if (settings.searchQuietMergeWrites() > 0) {
            org.agentmemory.platform.cluster.HousekeepingTimers.arm(
                    timers,
                    periods.period(org.agentmemory.platform.cluster.HousekeepingPeriods.SEARCH_QUIET_CHECK),
                    java.time.Duration.ZERO,
                    QUIET_CHECK);
        }
    }

    /** @return whether the indexes are an OpenSearch/Elasticsearch cluster's, shared by every server */
    private boolean clusterIndexes() {
        return ClusterIndexes.isCluster(emf.getProperties());
    }

    /**
     * The nightly merge, or the check for a merge after a bulk write: at least
     * {@code memory.search.quiet-merge-writes} documents written since the last merge and none for
     * {@code memory.search.quiet-merge-seconds}. Neither starts while a reindex or merge is running.
     *
     * <p>On a cluster's shared indexes both take a lease ({@code search-merge}, {@code search-quiet-merge}). A quiet
     * merge's lease lasts twice {@code memory.search.quiet-merge-seconds}: a server that does not get it saw another
     * server start a merge less than quiet-merge-seconds ago, that is after this server's last write, so that merge
     * covers this server's writes and they are not counted again.
     */
    @jakarta.ejb.Timeout
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void onTimer(jakarta.ejb.Timer timer) {
        if (NIGHTLY.equals(timer.getInfo())) {
            if (clusterIndexes()) {
                leases.runOnce(
                        org.agentmemory.api.config.HousekeepingSettings.SEARCH_MERGE,
                        periods.period(org.agentmemory.api.config.HousekeepingSettings.SEARCH_MERGE),
                        () -> tryLaunch(bean -> bean.merge("segments merged"), true) ? STARTED : NOT_STARTED);
            } else {
                startMerge();
            }
            return;
        }
        if (status.get().running()) {
            return;
        }
        long written = IndexWrites.DEPLOYMENT.takeIfDue(
                settings.searchQuietMergeWrites(), settings.searchQuietMergeSeconds() * 1000L);
        if (written == 0) {
            return;
        }
        boolean started;
        if (clusterIndexes()) {
            java.util.Optional<String> leased = leases.runOnce(
                    org.agentmemory.api.config.HousekeepingSettings.SEARCH_QUIET_MERGE,
                    java.time.Duration.ofSeconds(2L * settings.searchQuietMergeSeconds()),
                    () -> quietMerge(written) ? STARTED : NOT_STARTED);
            if (leased.isEmpty()) {
                LOG.fine(() -> written + " index writes are covered by a merge another server started");
                return;
            }
            started = STARTED.equals(leased.get());
        } else {
            started = quietMerge(written);
        }
        if (!started) {
            IndexWrites.DEPLOYMENT.giveBack(written);
        }
    }

    /** @return whether the merge after {@code written} index writes started */
    private boolean quietMerge(long written) {
        String why = "segments merged after " + written + " index writes and " + settings.searchQuietMergeSeconds()
                + " s without one";
        boolean started;
        try {
            started = tryLaunch(bean -> bean.merge(why), true);
        } catch (RuntimeException dispatchFailed) { // the status says failed; the next check counts these writes
            started = false;
        }
        if (started) {
            LOG.info(() -> "Merging the search indexes: " + written + " documents written since the last merge, none"
                    + " for " + settings.searchQuietMergeSeconds() + " s");
        }
        return started;
    }

    private final AtomicReference<ReindexStatus> status =
            new AtomicReference<>(new ReindexStatus("idle", 0, 0, null, null, null));
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong added = new AtomicLong();

    /** Whether the running job is a merge (a reindex asked for meanwhile starts when it ends). */
    private volatile boolean merging;
    /** A reindex asked for while a merge was running. */
    private boolean reindexQueued;

    /** The tenant of the queued reindex, or {@code null} for every tenant. */
    private String queuedTenant;

    /**
     * Starts a run unless one is in progress. While a merge runs, the reindex is queued and starts as soon as the
     * merge ends (the status stays "running" throughout, so a caller polling it sees the reindex's result).
     *
     * @return the status after the call
     */
    public ReindexStatus start() {
        return start(null);
    }

    /**
     * Starts a rebuild of one tenant's documents unless a run is in progress (issue 32 item 3: a tenant's admin
     * rebuilds its own tenant): every row of the tenant is indexed again, then documents whose rows are gone are
     * purged (an index reconciliation); other tenants' documents are not touched. Queued behind a merge as
     * {@link #start()} is.
     *
     * @param tenantId the tenant, or {@code null} for every tenant ({@link #start()})
     * @return the status after the call
     */
    public ReindexStatus start(String tenantId) {
        synchronized (this) {
            if (status.get().running() && merging) {
                // Two different scopes queued meanwhile become one rebuild of every tenant (which covers both).
                queuedTenant = !reindexQueued || java.util.Objects.equals(queuedTenant, tenantId) ? tenantId : null;
                reindexQueued = true;
                ReindexStatus s = status.get();
                return new ReindexStatus(
                        "running", 0, 0, s.startedAt(), null, "a merge is running; the reindex starts when it ends");
            }
        }
        return launch(bean -> bean.run(tenantId));
    }

    /**
     * Starts a merge of every index into one segment unless a reindex or merge is in progress.
     *
     * @return the status after the call
     */
    public ReindexStatus startMerge() {
        return launch(bean -> bean.merge("segments merged"), true);
    }

    private ReindexStatus launch(java.util.function.Consumer<SearchReindexBean> job) {
        return launch(job, false);
    }

    private ReindexStatus launch(java.util.function.Consumer<SearchReindexBean> job, boolean merge) {
        tryLaunch(job, merge);
        return current();
    }

    /**
     * Starts {@code job} on a container thread unless a run is in progress.
     *
     * @return whether it was started
     * @throws RuntimeException when the dispatch failed (the status then says failed)
     */
    private boolean tryLaunch(java.util.function.Consumer<SearchReindexBean> job, boolean merge) {
        if (!begin(merge)) {
            return false;
        }
        dispatch(job);
        return true;
    }

    /** Runs {@code job} on this bean's business object (its {@code @Asynchronous} methods); a failure ends the run. */
    private void dispatch(java.util.function.Consumer<SearchReindexBean> job) {
        try {
            job.accept(context.getBusinessObject(SearchReindexBean.class));
        } catch (RuntimeException e) {
            status.set(new ReindexStatus("failed", 0, 0, status.get().startedAt(), Instant.now(), e.toString()));
            throw e;
        }
    }

    /**
     * The merge itself, on a container thread, outside any transaction.
     *
     * @param done the status message once merged
     */
    @Asynchronous
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void merge(String done) {
        Instant started = java.util.Objects.requireNonNullElseGet(status.get().startedAt(), Instant::now);
        // This merge covers every write counted so far (a reindex merges too, see run()).
        IndexWrites.DEPLOYMENT.reset();
        try {
            Search.mapping(emf).scope(Object.class).workspace().mergeSegments();
            mergeClusterIndexes();
            LOG.info(() -> "Search indexes merged in "
                    + java.time.Duration.between(started, Instant.now()).toMillis() + " ms");
            endMerge(new ReindexStatus("done", 0, 0, started, Instant.now(), done));
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Merging the search indexes failed", e);
            endMerge(new ReindexStatus("failed", 0, 0, started, Instant.now(), e.toString()));
        }
    }

    /** Publishes a merge's result, or goes straight on with a reindex queued meanwhile (no "done" in between). */
    private void endMerge(ReindexStatus result) {
        synchronized (this) {
            merging = false;
            if (!reindexQueued) {
                status.set(result);
                return;
            }
            reindexQueued = false;
            markRunning(false);
        }
        String tenant = queuedTenant;
        try {
            dispatch(bean -> bean.run(tenant));
        } catch (RuntimeException dispatchFailed) {
            LOG.log(Level.SEVERE, "The reindex queued behind a merge could not start", dispatchFailed);
        }
    }

    /**
     * On OpenSearch/Elasticsearch, completes Hibernate Search's merge, which leaves several segments there: a force
     * merge into one segment per index, as the embedded Lucene backend's merge gives.
     */
    private void mergeClusterIndexes() {
        java.util.Map<String, Object> properties = emf.getProperties();
        if (org.agentmemory.platform.search.ClusterIndexes.isCluster(properties)) {
            Object uris = properties.get(org.agentmemory.platform.search.ClusterIndexes.BACKEND_URIS);
            org.agentmemory.platform.search.ClusterIndexes.forceMergeToOneSegment(
                    uris == null ? "http://127.0.0.1:9200" : uris.toString(),
                    indexNames(),
                    java.time.Duration.ofHours(2));
        }
    }

    /** @return the names of every index (one per indexed entity type), in a stable order */
    private List<String> indexNames() {
        List<String> names = new java.util.ArrayList<>();
        Search.mapping(emf)
                .allIndexedEntities()
                .forEach(e -> names.add(e.indexManager().descriptor().hibernateSearchName()));
        names.sort(null);
        return names;
    }

    /** @return whether a new run may start (then the status is "running") */
    private boolean begin(boolean merge) {
        synchronized (this) {
            if (status.get().running()) {
                return false;
            }
            markRunning(merge);
            return true;
        }
    }

    /** A new run (a merge or a reindex) starts now; called holding the lock. */
    private void markRunning(boolean merge) {
        merging = merge;
        total.set(0);
        added.set(0);
        status.set(new ReindexStatus("running", 0, 0, Instant.now(), null, null));
    }

    /** @return the progress of the current or last run */
    public ReindexStatus current() {
        ReindexStatus s = status.get();
        if (s.running()) {
            return new ReindexStatus("running", total.get(), added.get(), s.startedAt(), null, null);
        }
        return s;
    }

    /**
     * The run itself, on a container thread, outside any transaction (the mass indexer opens its own).
     *
     * @param tenantId the tenant whose documents are rebuilt, or {@code null} for every tenant
     */
    @Asynchronous
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void run(String tenantId) {
        Instant started = status.get().startedAt();
        IndexWrites.DEPLOYMENT.reset();
        try {
            if (tenantId == null) {
                Search.mapping(emf)
                        .scope(Object.class)
                        .massIndexer()
                        .purgeAllOnStart(true)
                        .threadsToLoadObjects(1)
                        .batchSizeToLoadObjects(200)
                        .monitor(new Progress())
                        // One segment per index afterwards: k-NN search walks one HNSW graph per segment.
                        .mergeSegmentsOnFinish(true)
                        .startAndWait();
            } else {
                rebuildTenant(tenantId);
            }
            mergeClusterIndexes();
            status.set(new ReindexStatus("done", total.get(), added.get(), started, Instant.now(), null));
            LOG.info(() -> "Search indexes rebuilt: " + added.get() + " documents");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status.set(new ReindexStatus("failed", total.get(), added.get(), started, Instant.now(), "interrupted"));
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Rebuilding the search indexes failed", e);
            status.set(new ReindexStatus("failed", total.get(), added.get(), started, Instant.now(), e.toString()));
        }
    }

    /**
     * Indexes every row of one tenant again (each indexed entity has a {@code tenantId} attribute; a type without one
     * holds no tenant's data and is left alone), without purging the index first, then purges documents whose rows
     * are gone with an index reconciliation.
     */
    private void rebuildTenant(String tenantId) throws InterruptedException {
        List<Class<?>> types = new java.util.ArrayList<>();
        for (var entity : Search.mapping(emf).allIndexedEntities()) {
            try {
                emf.getMetamodel().entity(entity.javaClass()).getAttribute(TENANT_ATTRIBUTE);
                types.add(entity.javaClass());
            } catch (IllegalArgumentException noTenant) {
                LOG.fine(() -> entity.jpaName() + " has no " + TENANT_ATTRIBUTE + "; a tenant's reindex leaves it");
            }
        }
        if (types.isEmpty()) {
            return;
        }
        org.hibernate.search.mapper.orm.massindexing.MassIndexer indexer = Search.mapping(emf)
                .scope(types)
                .massIndexer()
                .purgeAllOnStart(false)
                .threadsToLoadObjects(1)
                .batchSizeToLoadObjects(200)
                .monitor(new Progress())
                .mergeSegmentsOnFinish(true);
        for (Class<?> type : types) {
            indexer.type(type)
                    .reindexOnly("e." + TENANT_ATTRIBUTE + " = :tenant")
                    .param("tenant", tenantId);
        }
        indexer.startAndWait();
        reconciliation.reconcile();
    }

    /** Counts what the mass indexer reports. */
    private final class Progress implements MassIndexingMonitor {
        @Override
        public void documentsAdded(long increment) {
            added.addAndGet(increment);
        }

        @Override
        public void documentsBuilt(long increment) {
            // Built documents are counted when added to the index.
        }

        @Override
        public void entitiesLoaded(long increment) {
            // Loading is not reported separately.
        }

        @Override
        public void addToTotalCount(long increment) {
            total.addAndGet(increment);
        }

        @Override
        public void indexingCompleted() {
            LOG.fine("Mass indexing completed");
        }
    }
}
