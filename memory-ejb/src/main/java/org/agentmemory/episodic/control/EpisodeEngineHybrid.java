package org.agentmemory.episodic.control;

import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.recall.QueryTerms;
import org.agentmemory.episodic.entity.Episode;
import org.agentmemory.platform.ranking.HybridPipeline;
import org.agentmemory.platform.ranking.HybridQuery;
import org.agentmemory.platform.ranking.ScoredId;
import org.agentmemory.platform.ranking.Similarity;
import org.hibernate.search.backend.elasticsearch.ElasticsearchExtension;
import org.hibernate.search.mapper.orm.Search;

/**
 * Hybrid episodic recall as one OpenSearch {@code hybrid} query (issue 36 item 4), fused on the engine by the
 * {@link HybridPipeline} named in the request ({@code search_pipeline}); the same two legs as
 * {@link EpisodeStore#fullTextLeg} and {@link EpisodeStore#vectorLeg}:
 * <ul>
 * <li>full text: {@code match} on {@code situation}, {@code actionTaken} and {@code lessonLearned}, any of them;</li>
 * <li>vector: k-NN radial search on {@code embedding} with {@code min_score = (1 + threshold) / 2}, the lucene
 * engine's {@code cosinesimil} score of the cosine threshold, so exactly the neighbours the client-side leg keeps
 * (it drops those below the threshold) compete; only vectors of the query's model
 * ({@code embeddingModel}). A threshold of −1 or less keeps every neighbour: then the
 * {@link Similarity#knnCandidates} nearest, as the client-side leg asks.</li>
 * </ul>
 * Both hold the whole scope filter: the namespace's fields ({@link MemoryNamespace#filter()}), the category when
 * given, {@code failure} when only failures, and not expired (no {@code expiresAt} before {@code now}). The
 * client-side legs leave the category to {@link EpisodeRecall}'s check after loading; here it is in the filter, so
 * the engine ranks within the category (the same check still runs after, as does the cut to {@code topK}).
 *
 * <p>Only for the Elasticsearch backend: loaded only when hybrid recall runs on the engine (on the embedded Lucene
 * backend Hibernate Search's Elasticsearch extension may be absent), like the conversation recall's
 * {@code MessageEngineHybrid}.
 */
public final class EpisodeEngineHybrid {

    /** The full-text fields of the episode index, as the client-side leg searches them. */
    static final List<String> TEXT_FIELDS = List.of("situation", "actionTaken", "lessonLearned");

    private EpisodeEngineHybrid() {}

    /**
     * @param em           the entity manager of the caller's transaction
     * @param namespace    the checked namespace
     * @param query        the NFC query (searched by at most {@link QueryTerms#MAX_TERMS} of its words)
     * @param vector       the query embedding, unit length
     * @param model        the name of the model that made {@code vector}
     * @param depth        hits per sub-query and in all, ≥ 1
     * @param threshold    the vector sub-query's least cosine similarity, in [−1, 1]
     * @param category     only this category, or {@code null}
     * @param failuresOnly only failures
     * @param now          expired means {@code expiresAt < now}
     * @param pipeline     the search pipeline the service created
     * @return database ids (as text) best first, each with the engine's fused score (normalised combination in
     *         [0, 1], or Σ 1/(k + rank) for rrf)
     * @throws org.hibernate.search.util.common.SearchException when the engine refuses or fails the request
     */
    public static List<ScoredId> search(
            EntityManager em,
            MemoryNamespace namespace,
            String query,
            float[] vector,
            String model,
            int depth,
            double threshold,
            EpisodeCategory category,
            boolean failuresOnly,
            Instant now,
            HybridPipeline pipeline) {
        String hybrid = HybridQuery.of(
                TEXT_FIELDS,
                QueryTerms.bound(query).text(),
                "embedding",
                vector,
                neighbours(threshold, depth),
                filter(namespace, model, category, failuresOnly, now));
        String pipelineName = pipeline.name();
        List<List<?>> rows = Search.session(em)
                .search(Episode.class)
                .extension(ElasticsearchExtension.get())
                .select(f -> f.composite().from(f.id(Long.class), f.score()).asList())
                // A hybrid query must be the request's top-level query: a lone JSON predicate is sent as it is.
                .where(f -> f.fromJson(hybrid))
                .requestTransformer(context -> context.parametersMap().put("search_pipeline", pipelineName))
                .fetchHits(depth);
        List<ScoredId> hits = new ArrayList<>(rows.size());
        for (List<?> row : rows) {
            hits.add(new ScoredId(row.get(0).toString(), ((Number) row.get(1)).doubleValue()));
        }
        return hits;
    }

    /**
     * @param threshold the least cosine similarity
     * @param depth     hits the leg needs
     * @return radial search at {@code (1 + threshold) / 2}, or the k nearest when the threshold keeps everything
     */
    static HybridQuery.Neighbours neighbours(double threshold, int depth) {
        double minScore = (1.0 + threshold) / 2.0;
        return minScore > 0
                ? HybridQuery.Neighbours.within(minScore)
                : HybridQuery.Neighbours.nearest(Similarity.knnCandidates(depth));
    }

    /**
     * @return the scope filter: namespace terms, category, failure, a not-expired clause, and the model of the
     *         vector sub-query
     */
    static HybridQuery.Filter filter(
            MemoryNamespace namespace, String model, EpisodeCategory category, boolean failuresOnly, Instant now) {
        Map<String, Object> terms = new LinkedHashMap<>(namespace.filter());
        if (category != null) {
            terms.put("category", category.value());
        }
        if (failuresOnly) {
            terms.put("failure", Boolean.TRUE);
        }
        // As the client-side legs: no expiresAt before now (an episode without one never expires). Milliseconds, the
        // resolution of an OpenSearch date field.
        String notExpired = "{\"bool\":{\"must_not\":[{\"range\":{\"expiresAt\":{\"lt\":" + now.toEpochMilli()
                + ",\"format\":\"epoch_millis\"}}}]}}";
        return new HybridQuery.Filter(terms, List.of(notExpired), Map.of("embeddingModel", model));
    }
}
