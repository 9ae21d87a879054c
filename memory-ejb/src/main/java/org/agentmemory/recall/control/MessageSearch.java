package org.agentmemory.recall.control;

import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.agentmemory.api.recall.MessageHit;
import org.agentmemory.api.recall.QueryTerms;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.platform.ranking.Similarity;
import org.hibernate.search.engine.search.predicate.dsl.BooleanPredicateClausesStep;
import org.hibernate.search.engine.search.predicate.dsl.SearchPredicateFactory;
import org.hibernate.search.engine.search.projection.dsl.ProjectionFinalStep;
import org.hibernate.search.engine.search.projection.dsl.SearchProjectionFactory;
import org.hibernate.search.mapper.orm.Search;
import org.hibernate.search.mapper.orm.session.SearchSession;

/**
 * The two retrieval legs of conversation recall over the {@link TurnMessage} index. The scope (tenant, and a
 * user, optionally one agent, or one conversation) is a filter inside each leg. Hits are built from projections
 * alone, so a query never reads the database.
 */
public class MessageSearch {

    /**
     * Which messages may come back.
     *
     * @param tenantId       the tenant
     * @param userId         the user, or {@code null} (then {@code conversationId} is set)
     * @param chatbotKey     the agent's stored key, or {@code null} for every agent
     * @param conversationId one conversation, or {@code null}
     */
    public record Scope(String tenantId, String userId, String chatbotKey, Long conversationId) {
        /**
         * @param tenantId       the tenant
         * @param userId         the user, or {@code null}
         * @param chatbotId      one agent's id as the caller names it, or {@code null} for every agent
         * @param conversationId one conversation, or {@code null}
         * @return the scope, with the agent's stored key
         */
        public static Scope of(String tenantId, String userId, String chatbotId, Long conversationId) {
            return new Scope(
                    tenantId, userId, chatbotId == null ? null : Conversation.toKey(chatbotId), conversationId);
        }
    }

    /**
     * A leg's hit.
     *
     * @param id  the message's database id (as text, the fusion key)
     * @param hit the message and the leg's score
     */
    public record Hit(String id, MessageHit hit) {}

    private final EntityManager em;

    /**
     * @param em the entity manager of the caller's transaction
     */
    public MessageSearch(EntityManager em) {
        this.em = em;
    }

    /**
     * @param scope  the scope
     * @param vector the query embedding
     * @param k      how many
     * @return hits with cosine similarity, best first
     */
    public List<Hit> vectorLeg(Scope scope, float[] vector, int k) {
        SearchSession session = Search.session(em);
        List<List<?>> rows = session.search(TurnMessage.class)
                .select(f -> projection(f))
                .where(f -> f.knn(Similarity.knnCandidates(k))
                        .field("embedding")
                        .matching(vector)
                        .filter(scope(f, scope)))
                .fetchHits(k);
        return hits(rows, true);
    }

    /**
     * @param scope the scope
     * @param query the NFC query (searched by at most {@link QueryTerms#MAX_TERMS} of its words)
     * @param k     how many
     * @return hits with BM25 scores, best first (only messages matching at least one term)
     */
    public List<Hit> fullTextLeg(Scope scope, String query, int k) {
        SearchSession session = Search.session(em);
        List<List<?>> rows = session.search(TurnMessage.class)
                .select(f -> projection(f))
                .where(f -> f.bool()
                        .must(f.match()
                                .field("searchText")
                                .matching(QueryTerms.bound(query).text()))
                        .filter(scope(f, scope)))
                .fetchHits(k);
        return hits(rows, false);
    }

    /**
     * Messages of a scope whose indexed document has no vector yet. The database commits an embedder's vectors
     * before the index has them, so this, not the database, says when vector search sees them.
     *
     * @param scope the scope
     * @return how many indexed messages of the scope are still {@link TurnMessage#PENDING_IN_INDEX}
     */
    public long pendingInIndex(Scope scope) {
        return Search.session(em)
                .search(TurnMessage.class)
                .where(f -> f.bool()
                        .must(f.match().field("embeddingModel").matching(TurnMessage.PENDING_IN_INDEX))
                        .filter(scope(f, scope)))
                .fetchTotalHitCount();
    }

    static ProjectionFinalStep<List<?>> projection(SearchProjectionFactory<?, ?> f) {
        return f.composite()
                .from(
                        f.id(Long.class),
                        f.score(),
                        f.field("conversationId", Long.class),
                        f.field("userId", String.class),
                        f.field("sessionId", String.class),
                        f.field("turnId", String.class),
                        f.field("seq", Long.class),
                        f.field("role", String.class),
                        f.field("externalId", String.class),
                        f.field("author", String.class),
                        f.field("content", String.class),
                        f.field("occurredAt", Instant.class))
                .asList();
    }

    static List<Hit> hits(List<List<?>> rows, boolean cosine) {
        List<Hit> hits = new ArrayList<>(rows.size());
        for (List<?> r : rows) {
            double score = ((Number) r.get(1)).doubleValue();
            hits.add(new Hit(
                    r.get(0).toString(),
                    new MessageHit(
                            (Long) r.get(2),
                            (String) r.get(3),
                            (String) r.get(4),
                            (String) r.get(5),
                            (Long) r.get(6),
                            (String) r.get(7),
                            (String) r.get(8),
                            (String) r.get(9),
                            (String) r.get(10),
                            (Instant) r.get(11),
                            cosine ? Similarity.cosineOfLuceneScore(score) : score)));
        }
        return hits;
    }

    /**
     * The scope as index field → value, the same filters as {@link #scope(SearchPredicateFactory, Scope)} (keep
     * the two together).
     */
    static java.util.Map<String, Object> scopeTerms(Scope scope) {
        return org.agentmemory.platform.ranking.HybridQuery.scope(
                "tenantId", scope.tenantId(),
                "userId", scope.userId(),
                "chatbotKey", scope.chatbotKey(),
                "conversationId", scope.conversationId());
    }

    private static BooleanPredicateClausesStep<?> scope(SearchPredicateFactory f, Scope scope) {
        return f.bool().with(b -> {
            b.filter(f.match().field("tenantId").matching(scope.tenantId()));
            if (scope.userId() != null) {
                b.filter(f.match().field("userId").matching(scope.userId()));
            }
            if (scope.chatbotKey() != null) {
                b.filter(f.match().field("chatbotKey").matching(scope.chatbotKey()));
            }
            if (scope.conversationId() != null) {
                b.filter(f.match().field("conversationId").matching(scope.conversationId()));
            }
        });
    }
}
