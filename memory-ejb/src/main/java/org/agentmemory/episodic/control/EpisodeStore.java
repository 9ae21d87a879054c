package org.agentmemory.episodic.control;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.recall.QueryTerms;
import org.agentmemory.platform.ranking.ScoredId;
import org.agentmemory.platform.ranking.Similarity;
import org.agentmemory.platform.text.TextNormalization;
import org.hibernate.search.engine.search.predicate.dsl.BooleanPredicateClausesStep;
import org.hibernate.search.engine.search.predicate.dsl.SearchPredicateFactory;
import org.hibernate.search.mapper.orm.Search;
import org.hibernate.search.mapper.orm.session.SearchSession;

/**
 * Reads and writes of stored episodes over a caller-supplied {@link EntityManager} (the caller owns the
 * transaction): database queries for the recent, failure, preference and room listings, expiry and
 * compaction, and the two retrieval legs of recall over the search index.
 *
 * <p>Every query and both search legs apply the namespace filter (spec §10.1 {@code build_filter}) as exact
 * equality on each set field, and leave out expired episodes. Search legs filter inside the query (the k-NN
 * filter, the boolean filter clause), never after a global top-k, so another namespace's episodes cannot
 * crowd out or leak into the results.
 */
public class EpisodeStore {

    private static final int CHUNK = 500;

    private final EntityManager em;

    /**
     * @param em the entity manager, joined to the caller's transaction
     */
    public EpisodeStore(EntityManager em) {
        this.em = em;
    }

    /** @return the entity manager of the caller's transaction (for the engine hybrid query) */
    EntityManager entityManager() {
        return em;
    }

    /**
     * Embeds again, with the configured model, up to {@code max} episodes another model embedded (after a change of
     * {@code memory.embedding.model}); until then the vector leg leaves them out. Entities are updated, so the index
     * follows. An episode the model refuses keeps no vector (full-text recall still finds it).
     *
     * @param model the configured model
     * @param max   at most this many episodes
     * @return how many episodes had another model's vector (0: none left)
     */
    public int reembedOtherModels(org.agentmemory.platform.embedding.EmbeddingModel model, int max) {
        List<org.agentmemory.episodic.entity.Episode> stale = org.agentmemory.platform.persistence.LockedBatch.take(
                em.createQuery(
                                "SELECT e FROM Episode e WHERE e.embeddingModel <> :model ORDER BY e.id DESC",
                                org.agentmemory.episodic.entity.Episode.class)
                        .setParameter("model", model.name()),
                max);
        for (org.agentmemory.episodic.entity.Episode e : stale) {
            try {
                e.setEmbedding(model.embed(TextNormalization.searchableText(EpisodeMapper.toRecord(e))), model.name());
            } catch (RuntimeException refused) {
                e.setEmbedding(null, null);
            }
        }
        return stale.size();
    }

    /**
     * Which of these contents are stored already, with one query per tenant (not one per content).
     *
     * @param tenantIds   the tenant of each content, index by index with {@code contentKeys}
     * @param contentKeys deduplication keys
     * @return the stored episodes by {@link #storedKey(String, String)}
     */
    public java.util.Map<String, org.agentmemory.episodic.entity.Episode> findStored(
            List<String> tenantIds, List<String> contentKeys) {
        java.util.Map<String, List<String>> keysByTenant = new java.util.LinkedHashMap<>();
        for (int i = 0; i < contentKeys.size(); i++) {
            keysByTenant
                    .computeIfAbsent(tenantIds.get(i), t -> new ArrayList<>())
                    .add(contentKeys.get(i));
        }
        java.util.Map<String, org.agentmemory.episodic.entity.Episode> stored = new java.util.HashMap<>();
        keysByTenant.forEach((tenant, keys) ->
                findByContentKeys(tenant, keys).forEach(e -> stored.put(storedKey(tenant, e.getContentKey()), e)));
        return stored;
    }

    /**
     * @param tenantId   the tenant
     * @param contentKey the content's deduplication key
     * @return the key of {@link #findStored(List, List)}'s answer
     */
    public static String storedKey(String tenantId, String contentKey) {
        return tenantId + '\u0000' + contentKey;
    }

    /**
     * @param tenantId    the tenant
     * @param contentKeys content keys (any number; queried in chunks of 500)
     * @return the stored episodes with one of these keys
     */
    public List<org.agentmemory.episodic.entity.Episode> findByContentKeys(String tenantId, List<String> contentKeys) {
        List<org.agentmemory.episodic.entity.Episode> found = new ArrayList<>();
        List<String> distinct = new ArrayList<>(new java.util.LinkedHashSet<>(contentKeys));
        for (int from = 0; from < distinct.size(); from += 500) {
            found.addAll(em.createQuery(
                            "SELECT e FROM Episode e WHERE e.tenantId = :t AND e.contentKey IN :k",
                            org.agentmemory.episodic.entity.Episode.class)
                    .setParameter("t", tenantId)
                    .setParameter("k", distinct.subList(from, Math.min(distinct.size(), from + 500)))
                    .getResultList());
        }
        return found;
    }

    /**
     * @param tenantId  the tenant
     * @param episodeId the public id
     * @return the episode or {@code null}
     */
    public org.agentmemory.episodic.entity.Episode findByEpisodeId(String tenantId, String episodeId) {
        List<org.agentmemory.episodic.entity.Episode> found = em.createQuery(
                        "SELECT e FROM Episode e" + " WHERE e.tenantId = :t AND e.episodeId = :id",
                        org.agentmemory.episodic.entity.Episode.class)
                .setParameter("t", tenantId)
                .setParameter("id", episodeId)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /**
     * @param entity a new episode
     */
    public void insert(org.agentmemory.episodic.entity.Episode entity) {
        em.persist(entity);
    }

    /**
     * The namespace's live episodes, newest first (spec §10.7 {@code get_recent}).
     *
     * @param namespace    the namespace
     * @param failuresOnly only failures
     * @param category     only this category's value, or {@code null}
     * @param now          expired means {@code expiresAt < now}
     * @param limit        at most this many
     * @return the episodes
     */
    public List<org.agentmemory.episodic.entity.Episode> recent(
            MemoryNamespace namespace, boolean failuresOnly, String category, Instant now, int limit) {
        StringBuilder jpql = new StringBuilder("SELECT e FROM Episode e WHERE ");
        Map<String, Object> params = where(jpql, namespace);
        jpql.append(" AND (e.expiresAt IS NULL OR e.expiresAt >= :now)");
        params.put("now", now);
        if (failuresOnly) {
            jpql.append(" AND e.failure = TRUE");
        }
        if (category != null) {
            jpql.append(" AND e.category = :category");
            params.put("category", category);
        }
        jpql.append(" ORDER BY e.createdAt DESC, e.id DESC");
        TypedQuery<org.agentmemory.episodic.entity.Episode> q = em.createQuery(
                        jpql.toString(), org.agentmemory.episodic.entity.Episode.class)
                .setMaxResults(limit);
        params.forEach(q::setParameter);
        return q.getResultList();
    }

    /**
     * One page of a namespace's episodes, most recently stored first (by the row id, which grows with every
     * insert), expired ones included.
     *
     * @param namespace the namespace
     * @param belowId   only rows with a smaller id ({@code Long.MAX_VALUE} for the first page)
     * @param limit     at most this many
     * @return the rows
     */
    public List<org.agentmemory.episodic.entity.Episode> page(MemoryNamespace namespace, long belowId, int limit) {
        StringBuilder jpql = new StringBuilder("SELECT e FROM Episode e WHERE ");
        Map<String, Object> params = where(jpql, namespace);
        jpql.append(" AND e.id < :below ORDER BY e.id DESC");
        params.put("below", belowId);
        TypedQuery<org.agentmemory.episodic.entity.Episode> q = em.createQuery(
                        jpql.toString(), org.agentmemory.episodic.entity.Episode.class)
                .setMaxResults(limit);
        params.forEach(q::setParameter);
        return q.getResultList();
    }

    /**
     * @param namespace the namespace
     * @return how many episodes it holds
     */
    public long count(MemoryNamespace namespace) {
        StringBuilder jpql = new StringBuilder("SELECT COUNT(e) FROM Episode e WHERE ");
        Map<String, Object> params = where(jpql, namespace);
        TypedQuery<Long> q = em.createQuery(jpql.toString(), Long.class);
        params.forEach(q::setParameter);
        return q.getSingleResult();
    }

    /**
     * Deletes the episodes a compaction does not keep: all but the {@code keepTopN} most important (ties: the
     * newest first), never a failure when {@code keepAllFailures}.
     *
     * @return how many were deleted
     */
    public long compact(MemoryNamespace namespace, int keepTopN, boolean keepAllFailures) {
        StringBuilder jpql = new StringBuilder("SELECT e.id, e.failure FROM Episode e WHERE ");
        Map<String, Object> params = where(jpql, namespace);
        jpql.append(" ORDER BY e.importance DESC, e.createdAt DESC, e.id DESC");
        TypedQuery<Object[]> q = em.createQuery(jpql.toString(), Object[].class);
        params.forEach(q::setParameter);
        List<Object[]> rows = q.getResultList();
        if (rows.size() <= keepTopN) {
            return 0;
        }
        List<Long> doomed = new ArrayList<>();
        for (int i = keepTopN; i < rows.size(); i++) {
            if (!(keepAllFailures && (Boolean) rows.get(i)[1])) {
                doomed.add((Long) rows.get(i)[0]);
            }
        }
        return delete(doomed);
    }

    /**
     * Deletes the episodes whose {@code expiresAt} is before {@code now} (spec §10.7 {@code delete_expired}).
     *
     * @param now the current instant
     * @return how many were deleted
     */
    public long deleteExpired(Instant now) {
        List<Long> ids = em.createQuery("SELECT e.id FROM Episode e WHERE e.expiresAt < :now", Long.class)
                .setParameter("now", now)
                .getResultList();
        return delete(ids);
    }

    /**
     * Deletes a page of a subject's episodes (issue 34 item 4), oldest id first, with their index documents.
     *
     * @param tenantId the tenant
     * @param userId   the subject: episodes whose namespace names this user
     * @param limit    at most this many
     * @return the public ids of the episodes deleted; fewer than {@code limit} when none are left
     */
    public List<String> deleteOfUser(String tenantId, String userId, int limit) {
        return new EpisodeDeletions(em).deleteOfOwner(tenantId, null, userId, limit);
    }

    /** Deletes rows by database id and purges their index documents (applied when the transaction commits). */
    long delete(List<Long> ids) {
        long deleted = 0;
        SearchSession search = Search.session(em);
        for (int from = 0; from < ids.size(); from += CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            deleted += em.createQuery("DELETE FROM Episode e WHERE e.id IN :ids")
                    .setParameter("ids", chunk)
                    .executeUpdate();
            for (Long id : chunk) {
                search.indexingPlan().purge(org.agentmemory.episodic.entity.Episode.class, id, null);
            }
        }
        return deleted;
    }

    /**
     * Merges a patch into the metadata of episodes of one tenant, under row locks (so concurrent merges of
     * different keys both survive). Unknown ids are ignored.
     *
     * @param tenantId   the tenant
     * @param episodeIds public ids
     * @param patch      keys to set
     * @param now        the update time
     * @return how many episodes were updated
     */
    public int mergeMetadata(String tenantId, Collection<String> episodeIds, Map<String, Object> patch, Instant now) {
        int updated = 0;
        List<String> all = new ArrayList<>(new java.util.TreeSet<>(episodeIds));
        for (int from = 0; from < all.size(); from += CHUNK) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + CHUNK));
            for (org.agentmemory.episodic.entity.Episode e : em.createQuery(
                            "SELECT e FROM Episode e" + " WHERE e.tenantId = :t AND e.episodeId IN :ids ORDER BY e.id",
                            org.agentmemory.episodic.entity.Episode.class)
                    .setParameter("t", tenantId)
                    .setParameter("ids", chunk)
                    .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                    .getResultList()) {
                Map<String, Object> merged = new LinkedHashMap<>(e.getMetadata());
                merged.putAll(patch);
                e.setMetadata(merged);
                e.touch(now);
                updated++;
            }
        }
        return updated;
    }

    /**
     * Loads episodes by database id.
     *
     * @param ids database ids
     * @return id → episode, for those that exist
     */
    public Map<Long, org.agentmemory.episodic.entity.Episode> load(Collection<Long> ids) {
        Map<Long, org.agentmemory.episodic.entity.Episode> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        for (org.agentmemory.episodic.entity.Episode e : em.createQuery(
                        "SELECT e FROM Episode e WHERE e.id IN :ids", org.agentmemory.episodic.entity.Episode.class)
                .setParameter("ids", ids)
                .getResultList()) {
            found.put(e.getId(), e);
        }
        return found;
    }

    /**
     * The vector leg: k nearest neighbours by cosine similarity among the namespace's live episodes.
     *
     * @param namespace     the namespace
     * @param model         the name of the model that made {@code vector}; only episodes embedded by it compete
     * @param vector        the query embedding (unit length)
     * @param k             how many
     * @param minSimilarity the least cosine similarity kept
     * @param failuresOnly  only failures
     * @param now           for expiry
     * @return database ids (as text) with their cosine similarity, best first
     */
    public List<ScoredId> vectorLeg(
            MemoryNamespace namespace,
            String model,
            float[] vector,
            int k,
            double minSimilarity,
            boolean failuresOnly,
            Instant now) {
        List<List<?>> hits = Search.session(em)
                .search(org.agentmemory.episodic.entity.Episode.class)
                .select(f -> f.composite().from(f.id(Long.class), f.score()).asList())
                .where(f -> f.knn(org.agentmemory.platform.ranking.Similarity.knnCandidates(k))
                        .field("embedding")
                        .matching(vector)
                        .filter(f.bool()
                                .must(scope(f, namespace, failuresOnly, now))
                                .filter(f.match().field("embeddingModel").matching(model))))
                .fetchHits(k);
        List<ScoredId> legs = new ArrayList<>(hits.size());
        for (List<?> hit : hits) {
            double cosine = Similarity.cosineOfLuceneScore(((Number) hit.get(1)).doubleValue());
            if (cosine >= minSimilarity) {
                legs.add(new ScoredId(hit.get(0).toString(), cosine));
            }
        }
        return legs;
    }

    /**
     * The full-text leg: BM25 over situation, action and lesson (English analysis) among the namespace's live
     * episodes; only episodes matching at least one query term.
     *
     * @param namespace    the namespace
     * @param query        the NFC query text
     * @param k            how many
     * @param failuresOnly only failures
     * @param now          for expiry
     * @return database ids (as text) with their BM25 score, best first
     */
    public List<ScoredId> fullTextLeg(
            MemoryNamespace namespace, String query, int k, boolean failuresOnly, Instant now) {
        List<List<?>> hits = Search.session(em)
                .search(org.agentmemory.episodic.entity.Episode.class)
                .select(f -> f.composite().from(f.id(Long.class), f.score()).asList())
                .where(f -> f.bool()
                        .must(f.match()
                                .fields("situation", "actionTaken", "lessonLearned")
                                .matching(QueryTerms.bound(query).text()))
                        .filter(scope(f, namespace, failuresOnly, now)))
                .fetchHits(k);
        List<ScoredId> legs = new ArrayList<>(hits.size());
        for (List<?> hit : hits) {
            legs.add(new ScoredId(hit.get(0).toString(), ((Number) hit.get(1)).doubleValue()));
        }
        return legs;
    }

    private static BooleanPredicateClausesStep<?> scope(
            SearchPredicateFactory f, MemoryNamespace namespace, boolean failuresOnly, Instant now) {
        return f.bool().with(b -> {
            namespace
                    .filter()
                    .forEach((field, value) -> b.filter(f.match().field(field).matching(value)));
            if (failuresOnly) {
                b.filter(f.match().field("failure").matching(true));
            }
            b.mustNot(f.range().field("expiresAt").lessThan(now));
        });
    }

    private static Map<String, Object> where(StringBuilder jpql, MemoryNamespace namespace) {
        Map<String, Object> params = new LinkedHashMap<>();
        boolean first = true;
        for (Map.Entry<String, String> e : namespace.filter().entrySet()) {
            jpql.append(first ? "" : " AND ")
                    .append("e.")
                    .append(e.getKey())
                    .append(" = :")
                    .append(e.getKey());
            params.put(e.getKey(), e.getValue());
            first = false;
        }
        return params;
    }

    /**
     * @param records loaded entities
     * @return their transfer records
     */
    public static List<Episode> records(List<org.agentmemory.episodic.entity.Episode> records) {
        List<Episode> out = new ArrayList<>(records.size());
        records.forEach(e -> out.add(EpisodeMapper.toRecord(e)));
        return out;
    }
}
