package org.agentmemory.recall.control;

import jakarta.persistence.EntityManager;
import java.util.List;
import org.agentmemory.api.recall.QueryTerms;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.platform.ranking.HybridPipeline;
import org.agentmemory.platform.ranking.HybridQuery;
import org.agentmemory.platform.ranking.Similarity;
import org.hibernate.search.backend.elasticsearch.ElasticsearchExtension;
import org.hibernate.search.mapper.orm.Search;

/**
 * Hybrid conversation recall as one OpenSearch {@code hybrid} query (issue 36 item 4): the full-text and the vector
 * sub-queries of {@link HybridQuery}, each filtered by the whole {@link MessageSearch.Scope}, fused on the engine by
 * the {@link HybridPipeline} named in the request ({@code search_pipeline}). Hibernate Search sends the request and
 * reads the hits from the same projections as {@link MessageSearch}'s legs, so no database read either.
 *
 * <p>Only for the Elasticsearch backend: this class and {@code episodic.control.EpisodeEngineHybrid} are the only
 * ones of the product that touch Hibernate Search's Elasticsearch extension, and they are loaded only when hybrid
 * recall runs on the engine (on the embedded Lucene backend those classes may be absent).
 */
public final class MessageEngineHybrid {

    private MessageEngineHybrid() {}

    /**
     * @param em       the entity manager of the caller's transaction
     * @param scope    the scope, a filter inside both sub-queries
     * @param query    the NFC query (searched by at most {@link QueryTerms#MAX_TERMS} of its words)
     * @param vector   the query embedding
     * @param k        how many hits
     * @param pipeline the search pipeline the service created
     * @return at most {@code 2 k} hits (the fused union of two legs of {@code k}), best first, each with the engine's fused score (normalised combination in [0, 1], or
     *         Σ 1/(k + rank) for rrf)
     * @throws org.hibernate.search.util.common.SearchException when the engine refuses or fails the request
     */
    public static List<MessageSearch.Hit> search(
            EntityManager em, MessageSearch.Scope scope, String query, float[] vector, int k, HybridPipeline pipeline) {
        // Each sub-query keeps its k best, as each client-side leg does, and the whole fused union comes back, as
        // client-side fusion hands it to the neighbour context (which may lift a hit fused below k).
        String hybrid = HybridQuery.of(
                List.of("searchText"),
                QueryTerms.bound(query).text(),
                "embedding",
                vector,
                HybridQuery.Neighbours.nearest(Similarity.knnCandidates(k)),
                HybridQuery.Filter.of(MessageSearch.scopeTerms(scope)),
                k);
        String pipelineName = pipeline.name();
        List<List<?>> rows = Search.session(em)
                .search(TurnMessage.class)
                .extension(ElasticsearchExtension.get())
                .select(f -> MessageSearch.projection(f))
                // A hybrid query must be the request's top-level query: Hibernate Search sends a lone JSON
                // predicate as it is.
                .where(f -> f.fromJson(hybrid))
                .requestTransformer(context -> context.parametersMap().put("search_pipeline", pipelineName))
                .fetchHits(2 * k);
        return MessageSearch.hits(rows, false);
    }
}
