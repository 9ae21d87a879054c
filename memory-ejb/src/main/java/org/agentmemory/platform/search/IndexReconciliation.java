package org.agentmemory.platform.search;

import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.hibernate.search.engine.search.query.SearchScroll;
import org.hibernate.search.engine.search.query.SearchScrollResult;
import org.hibernate.search.mapper.orm.Search;
import org.hibernate.search.mapper.orm.entity.SearchIndexedEntity;
import org.hibernate.search.mapper.orm.mapping.SearchMapping;
import org.hibernate.search.mapper.orm.work.SearchIndexingPlan;

/**
 * Makes the search indexes agree with their tables: every indexed entity type is compared id by id with its table
 * ({@link IndexDiff}); missing or stale documents are indexed again from their rows, documents without a row are
 * purged, and the indexes are flushed (committed) at the end.
 *
 * <p>The state compared is the entity's {@value #STATE_FIELD} when its index has that field (projectable): the only
 * indexed field of conversation messages and episodes that changes after a row is written. An entity type without it
 * is compared by ids alone. Every indexed entity has its id in an attribute named {@code id}.
 *
 * <p>Each step runs in a transaction of its own ({@link Transactions}), so no transaction grows with the data. Rows
 * written or deleted while it runs are checked again before a document is written or purged; the caller still runs
 * it before anything else writes (at start-up, see {@code IndexReconciliationBean}).
 */
public final class IndexReconciliation {

    /** Rows read per database page, and documents read per index scroll page. */
    static final int PAGE = 5_000;
    /** Rows indexed again, or documents purged, per transaction. */
    static final int CHUNK = 500;

    /** Runs work in a transaction of its own, committed when the work returns. */
    @FunctionalInterface
    public interface Transactions {
        /**
         * @param work what to do with the transaction's entity manager
         * @throws RuntimeException when the work or the commit fails (the transaction is then rolled back)
         */
        void run(Consumer<EntityManager> work);
    }

    /**
     * What a reconciliation did.
     *
     * @param documentsCompared documents the indexes held before
     * @param reindexed         documents written again from their rows (missing or stale)
     * @param purged            documents purged (no row)
     * @param millis            how long it took
     */
    public record Outcome(long documentsCompared, long reindexed, long purged, long millis) {}

    /** The indexed field (and entity attribute) whose value changes when a row is updated after it was written. */
    public static final String STATE_FIELD = "embeddingModel";

    private record Indexed(Class<?> entity, String jpqlName, boolean withState) {}

    private final Transactions transactions;
    private final SearchMapping mapping;

    /**
     * @param transactions runs each step in a transaction of its own
     * @param mapping      the search mapping (to flush the indexes at the end)
     */
    public IndexReconciliation(Transactions transactions, SearchMapping mapping) {
        this.transactions = transactions;
        this.mapping = mapping;
    }

    /**
     * @return what was done
     * @throws RuntimeException when a step fails (what was done until then stays done)
     */
    public Outcome run() {
        long started = System.nanoTime();
        long compared = 0;
        long reindexed = 0;
        long purged = 0;
        List<Indexed> types = new ArrayList<>();
        for (SearchIndexedEntity<?> indexed : mapping.allIndexedEntities()) {
            types.add(new Indexed(
                    indexed.javaClass(),
                    indexed.jpaName(),
                    indexed.indexManager().descriptor().field(STATE_FIELD).isPresent()));
        }
        types.sort(java.util.Comparator.comparing(Indexed::jpqlName));
        for (Indexed type : types) {
            IndexDiff diff = new IndexDiff();
            transactions.run(em -> scanIndex(em, type, diff));
            compared += diff.documents();
            List<Long> again = new ArrayList<>();
            List<Long> gone = new ArrayList<>();
            diff.compare(new Rows(type), IndexDiff.collecting(again::add, gone::add));
            IndexDiff.inChunks(again, CHUNK, ids -> transactions.run(em -> reindex(em, type.entity(), ids)));
            IndexDiff.inChunks(gone, CHUNK, ids -> transactions.run(em -> purge(em, type.entity(), ids)));
            reindexed += again.size();
            purged += gone.size();
        }
        mapping.scope(Object.class).workspace().flush();
        return new Outcome(compared, reindexed, purged, (System.nanoTime() - started) / 1_000_000);
    }

    /** Adds every document of an entity's index, with its state, to {@code diff}. */
    private static void scanIndex(EntityManager em, Indexed type, IndexDiff diff) {
        try (SearchScroll<List<?>> scroll = Search.session(em)
                .search(type.entity())
                .select(f -> f.composite()
                        .from(
                                f.id(Long.class),
                                type.withState() ? f.field(STATE_FIELD, String.class) : f.constant((String) null))
                        .asList())
                .where(f -> f.matchAll())
                .scroll(PAGE)) {
            for (SearchScrollResult<List<?>> page = scroll.next(); page.hasHits(); page = scroll.next()) {
                for (List<?> hit : page.hits()) {
                    diff.indexed((Long) hit.get(0), state((String) hit.get(1)));
                }
            }
        }
    }

    /** An index holds {@link VectorFields#PENDING} where a row holds no embedding model yet ({@code null}). */
    private static String state(String embeddingModel) {
        return VectorFields.PENDING.equals(embeddingModel) ? null : embeddingModel;
    }

    private static void reindex(EntityManager em, Class<?> entity, List<Long> ids) {
        SearchIndexingPlan plan = Search.session(em).indexingPlan();
        for (Long id : ids) {
            Object row = em.find(entity, id);
            if (row == null) {
                plan.purge(entity, id, null); // deleted meanwhile
            } else {
                plan.addOrUpdate(row);
            }
        }
    }

    private static void purge(EntityManager em, Class<?> entity, List<Long> ids) {
        SearchIndexingPlan plan = Search.session(em).indexingPlan();
        for (Long id : ids) {
            if (em.find(entity, id) == null) { // a row written meanwhile is indexed by its own commit
                plan.purge(entity, id, null);
            }
        }
    }

    /** The rows of an entity in id order with their embedding model, a page per transaction. */
    private final class Rows implements Iterator<IndexDiff.Row> {
        private final Indexed type;
        private List<Object[]> page = List.of();
        private int next;
        private long after = -1;
        private boolean done;

        Rows(Indexed type) {
            this.type = type;
        }

        @Override
        public boolean hasNext() {
            if (next < page.size()) {
                return true;
            }
            if (done) {
                return false;
            }
            List<Object[]> read = new ArrayList<>();
            String state = type.withState() ? "e." + STATE_FIELD : "NULL";
            transactions.run(em -> read.addAll(em.createQuery(
                            "SELECT e.id, " + state + " FROM " + type.jpqlName()
                                    + " e WHERE e.id > :after ORDER BY e.id",
                            Object[].class)
                    .setParameter("after", after)
                    .setMaxResults(PAGE)
                    .getResultList()));
            page = read;
            next = 0;
            done = page.size() < PAGE;
            if (!page.isEmpty()) {
                after = ((Number) page.get(page.size() - 1)[0]).longValue();
            }
            return !page.isEmpty();
        }

        @Override
        public IndexDiff.Row next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Object[] row = page.get(next++);
            return new IndexDiff.Row(((Number) row[0]).longValue(), (String) row[1]);
        }
    }
}
