package org.agentmemory.recall.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.recall.ConversationRecall;
import org.agentmemory.api.recall.ConversationRecallRemote;
import org.agentmemory.api.recall.MessageHit;
import org.agentmemory.api.recall.MessageRecallRequest;
import org.agentmemory.api.recall.ReindexStatus;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.embedding.QueryVectors;
import org.agentmemory.platform.ranking.FusedHit;
import org.agentmemory.platform.ranking.HybridPipeline;
import org.agentmemory.platform.ranking.ScoredId;
import org.agentmemory.platform.search.EngineHybridBean;
import org.agentmemory.platform.search.SearchReindexBean;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.text.TextNormalization;
import org.agentmemory.platform.validation.InputRules;
import org.agentmemory.recall.control.MessageEngineHybrid;
import org.agentmemory.recall.control.MessageIndex;
import org.agentmemory.recall.control.MessageSearch;
import org.agentmemory.recall.control.NeighborContext;

/**
 * Conversation recall: full-text, vector or hybrid search over stored messages within a user's conversations
 * (optionally one agent's) or one conversation, and the mass reindex. Hybrid fuses the two legs with the
 * configured fusion ({@code memory.recall.fusion}; reciprocal rank fusion by default), each leg returning
 * {@code memory.recall.candidates} candidates, then re-ranks the fused list with {@link NeighborContext}
 * ({@code memory.recall.neighbor-weight}). On an OpenSearch cluster with the neural-search plugin
 * ({@code memory.search.engine-hybrid=auto}, issue 36 item 4) the two legs run as one {@code hybrid} query fused by
 * the engine's search pipeline ({@link EngineHybridBean}), then the same re-ranking; when that query fails, this
 * call and those of the next 30 seconds fuse client-side.
 */
@jakarta.annotation.security.DeclareRoles({
    RequiresRole.READER,
    RequiresRole.WRITER,
    RequiresRole.ADMIN,
    RequiresRole.OPERATOR
})
@jakarta.annotation.security.PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@jakarta.interceptor.Interceptors({CallerScope.class, org.agentmemory.platform.load.ForegroundRequests.class})
public class ConversationRecallBean implements ConversationRecall, ConversationRecallRemote {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @jakarta.annotation.Resource
    jakarta.enterprise.concurrent.ManagedExecutorService executor;

    @Inject
    Settings settings;

    @EJB
    SearchReindexBean reindex;

    /** Whether hybrid recall runs on the engine; {@code null} (outside a container) means client-side. */
    @EJB
    EngineHybridBean engineHybrid;

    /** The one leg name of an engine hybrid hit's rank. */
    private static final String HYBRID_LEG = "hybrid";

    @Override
    @jakarta.interceptor.Interceptors(org.agentmemory.platform.search.SearchEngineGuard.class)
    public List<MessageHit> searchMessages(MessageRecallRequest request) throws InvalidInputException {
        if (request == null) {
            throw new InvalidInputException("request", "required", "The search request is required.");
        }
        InputRules.checkTenant(request.tenantId());
        if (request.userId() == null && request.conversationId() == null) {
            throw new InvalidInputException(
                    "userId",
                    "required",
                    "Name the scope: userId (a user's conversations) or conversationId (one conversation).");
        }
        InputRules.checkOptionalId("userId", request.userId());
        InputRules.checkOptionalId("chatbotId", request.chatbotId());
        InputRules.checkText("query", request.query(), InputRules.Controls.NO_NUL);
        if (request.query() == null || request.query().isBlank()) {
            throw new InvalidInputException("query", "required", "query is required: the text to search for.");
        }
        int topK = request.effectiveTopK();
        if (topK < 1 || topK > MessageRecallRequest.MAX_TOP_K) {
            throw new InvalidInputException(
                    "topK",
                    "range",
                    "topK is " + topK + "; it must be between 1 and " + MessageRecallRequest.MAX_TOP_K + ".");
        }
        MessageSearch.Scope scope = MessageSearch.Scope.of(
                request.tenantId(), request.userId(), request.chatbotId(), request.conversationId());
        String query = TextNormalization.query(request.query());
        MessageSearch search = new MessageSearch(em);
        List<MessageSearch.Hit> hits = switch (request.effectiveMode()) {
            case VECTOR -> {
                float[] vector = QueryVectors.unlessUnreadable(settings.messageEmbeddingModel(), query);
                yield vector == null ? List.of() : search.vectorLeg(scope, vector, topK);
            }
            case FULL_TEXT -> search.fullTextLeg(scope, query, topK);
            case HYBRID -> hybrid(search, scope, query, topK);
        };
        List<MessageHit> out = new ArrayList<>(Math.min(topK, hits.size()));
        for (MessageSearch.Hit hit : hits) {
            out.add(hit.hit());
            if (out.size() == topK) {
                break;
            }
        }
        return out;
    }

    private List<MessageSearch.Hit> hybrid(MessageSearch search, MessageSearch.Scope scope, String query, int topK) {
        int depth = Math.max(topK, settings.recallCandidates());
        // The query is embedded on a pool thread while the full-text leg runs here.
        org.agentmemory.platform.embedding.Overlap<float[]> embedding =
                org.agentmemory.platform.embedding.Overlap.start(
                        () -> org.agentmemory.platform.embedding.QueryVectors.orNull(
                                settings.messageEmbeddingModel(), query),
                        executor);
        HybridPipeline pipeline = engineHybrid == null ? null : engineHybrid.pipeline();
        if (pipeline != null) {
            float[] queryVector = embedding.join();
            if (queryVector != null) { // an unreadable query has no vector: full text alone, client-side
                try {
                    List<MessageSearch.Hit> engine =
                            MessageEngineHybrid.search(em, scope, query, queryVector, depth, pipeline);
                    Map<String, MessageHit> byId = new HashMap<>();
                    List<FusedHit> fused = new ArrayList<>(engine.size());
                    for (MessageSearch.Hit hit : engine) {
                        byId.putIfAbsent(hit.id(), hit.hit());
                        fused.add(new FusedHit(hit.id(), hit.hit().score(), Map.of(HYBRID_LEG, fused.size() + 1)));
                    }
                    return reranked(fused, byId, topK);
                } catch (org.hibernate.search.util.common.SearchException | LinkageError e) {
                    // The pipeline may be gone, or the Elasticsearch extension missing: fuse here, ask again later.
                    engineHybrid.engineFailed(e);
                }
            }
        }
        List<MessageSearch.Hit> fullText = search.fullTextLeg(scope, query, depth);
        float[] queryVector = embedding.join();
        List<MessageSearch.Hit> vector = queryVector == null ? List.of() : search.vectorLeg(scope, queryVector, depth);
        Map<String, MessageHit> byId = new HashMap<>();
        Map<String, List<ScoredId>> legs = new LinkedHashMap<>();
        legs.put(RecallMode.VECTOR.value(), scored(vector, byId));
        legs.put(RecallMode.FULL_TEXT.value(), scored(fullText, byId));
        return reranked(settings.recallFusion().fuse(legs), byId, topK);
    }

    /** Neighbour context over the fused list, then the first {@code topK} with their re-ranked scores. */
    private List<MessageSearch.Hit> reranked(List<FusedHit> fusedHits, Map<String, MessageHit> byId, int topK) {
        List<FusedHit> ranked = NeighborContext.apply(
                fusedHits, id -> NeighborContext.Position.of(byId.get(id)), settings.recallNeighborWeight());
        List<MessageSearch.Hit> fused = new ArrayList<>();
        for (FusedHit hit : ranked) {
            MessageHit h = byId.get(hit.id());
            fused.add(new MessageSearch.Hit(
                    hit.id(),
                    new MessageHit(
                            h.conversationId(),
                            h.userId(),
                            h.sessionId(),
                            h.turnId(),
                            h.sequence(),
                            h.role(),
                            h.externalId(),
                            h.author(),
                            h.content(),
                            h.occurredAt(),
                            hit.score())));
            if (fused.size() == topK) {
                break;
            }
        }
        return fused;
    }

    private static List<ScoredId> scored(List<MessageSearch.Hit> hits, Map<String, MessageHit> byId) {
        List<ScoredId> scored = new ArrayList<>(hits.size());
        for (MessageSearch.Hit hit : hits) {
            byId.putIfAbsent(hit.id(), hit.hit());
            scored.add(new ScoredId(hit.id(), hit.hit().score()));
        }
        return scored;
    }

    @Override
    public ReindexStatus startReindex() {
        return reindex.start();
    }

    @Override
    public ReindexStatus startReindex(String tenantId) throws InvalidInputException {
        if (tenantId == null || tenantId.isBlank() || tenantId.length() > 64) {
            throw new InvalidInputException("tenantId", "tenant-id", "tenantId must be 1 to 64 characters, not blank.");
        }
        return reindex.start(tenantId);
    }

    @Override
    public ReindexStatus startMerge() {
        return reindex.startMerge();
    }

    @Override
    @jakarta.interceptor.ExcludeClassInterceptors // a progress probe
    public ReindexStatus reindexStatus() {
        return reindex.current();
    }

    @Override
    @jakarta.interceptor.ExcludeClassInterceptors // a progress probe: polling it must not hold the embedder back
    public long pendingEmbeddings(String tenantId, String userId, Long conversationId) throws InvalidInputException {
        org.agentmemory.platform.validation.InputRules.checkTenant(tenantId);
        org.agentmemory.platform.validation.InputRules.checkOptionalId("userId", userId);
        long inDatabase = MessageIndex.pendingEmbeddings(
                em,
                tenantId,
                userId,
                conversationId,
                settings.messageEmbeddingModel().name());
        if (inDatabase > 0) {
            return inDatabase;
        }
        // The embedder commits its vectors to the database a moment before the index has them: until the index
        // agrees, vector search would not see them yet, so they still count as pending.
        return new MessageSearch(em).pendingInIndex(new MessageSearch.Scope(tenantId, userId, null, conversationId));
    }
}
