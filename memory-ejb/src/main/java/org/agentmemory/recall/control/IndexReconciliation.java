package org.agentmemory.recall.control;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

import jakarta.persistence.EntityManager;

import org.agentmemory.episodic.entity.Episode;
import org.agentmemory.recall.entity.TurnMessage;
import org.hibernate.search.engine.search.query.SearchScroll;
import org.hibernate.search.engine.search.query.SearchScrollResult;
import org.hibernate.search.mapper.orm.Search;
import org.hibernate.search.mapper.orm.mapping.SearchMapping;
import org.hibernate.search.mapper.orm.work.SearchIndexingPlan;

/**
 * Makes the search indexes of conversation messages and episodes agree with their tables: every entity type is
 * compared id by id with its table ({@link IndexDiff}; the state compared is the embedding model, the only indexed
 * field that changes after a row is written); missing or stale documents are indexed again from their rows,
 * documents without a row are purged, and the indexes are flushed (committed) at the end.
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
    public record Outcome(long documentsCompared, long reindexed, long purged, long millis) {
    }

    private record Indexed(Class<?> entity, String jpqlName) {
    }

    private static final List<Indexed> TYPES = List.of(new Indexed(TurnMessage.class, "TurnMessage"),
            new Indexed(Episode.class, "Episode"));

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
        for (Indexed type : TYPES) {
            IndexDiff diff = new IndexDiff();
            transactions.run(em -> scanIndex(em, type.entity(), diff));
            compared += diff.documents();
            List<Long> again = new ArrayList<>();
            List<Long> gone = new ArrayList<>();
            diff.compare(new Rows(type.jpqlName()), IndexDiff.collecting(again::add, gone::add));
            IndexDiff.inChunks(again, CHUNK, ids -> transactions.run(em -> reindex(em, type.entity(), ids)));
            IndexDiff.inChunks(gone, CHUNK, ids -> transactions.run(em -> purge(em, type.entity(), ids)));
            reindexed += again.size();
            purged += gone.size();
        }
        mapping.scope(Object.class).workspace().flush();
        return new Outcome(compared, reindexed, purged, (System.nanoTime() - started) / 1_000_000);
    }

    /** Adds every document of an entity's index, with its embedding model, to {@code diff}. */
    private static void scanIndex(EntityManager em, Class<?> entity, IndexDiff diff) {
        try (SearchScroll<List<?>> scroll = Search.session(em).search(entity)
                .select(f -> f.composite().from(f.id(Long.class), f.field("embeddingModel", String.class)).asList())
                .where(f -> f.matchAll()).scroll(PAGE)) {
            for (SearchScrollResult<List<?>> page = scroll.next(); page.hasHits(); page = scroll.next()) {
                for (List<?> hit : page.hits()) {
                    diff.indexed((Long) hit.get(0), state((String) hit.get(1)));
                }
            }
        }
    }

    /** The message index holds {@link TurnMessage#PENDING_IN_INDEX} where the row holds {@code null}. */
    private static String state(String embeddingModel) {
        return TurnMessage.PENDING_IN_INDEX.equals(embeddingModel) ? null : embeddingModel;
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
        private final String entity;
        private List<Object[]> page = List.of();
        private int next;
        private long after = -1;
        private boolean done;

        Rows(String entity) {
            this.entity = entity;
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
            transactions.run(em -> read.addAll(em.createQuery("SELECT e.id, e.embeddingModel FROM " + entity
                    + " e WHERE e.id > :after ORDER BY e.id", Object[].class).setParameter("after", after)
                    .setMaxResults(PAGE).getResultList()));
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
