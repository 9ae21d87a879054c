package org.agentmemory.episodic.control;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.ranking.FusedHit;
import org.agentmemory.platform.ranking.Fusion;
import org.agentmemory.platform.ranking.HybridPipeline;
import org.agentmemory.platform.ranking.ScoredId;

/**
 * Episodic recall (spec §10.3 {@code recall_similar}) over a store of the caller's transaction: the vector leg, the
 * full-text leg, or both fused ({@code memory.recall.fusion}), each with the namespace filter inside; hits are loaded,
 * checked again against the namespace, expiry, category and failure filter, and cut to {@code topK}. Hybrid recall
 * runs as one engine {@code hybrid} query ({@link EpisodeEngineHybrid}) when a search pipeline is given (issue 36
 * item 4), and falls back to the two legs fused here when that query fails.
 */
public final class EpisodeRecall {

    private final EpisodeStore store;
    private final EmbeddingModel model;
    private final Fusion fusion;
    private final int candidates;
    private final ExecutorService executor;
    private final HybridPipeline pipeline;
    private final Consumer<Throwable> engineFailed;

    /**
     * @param store      the store of the caller's transaction
     * @param model      the episodic embedding model
     * @param fusion     how hybrid recall fuses its legs
     * @param candidates candidates per leg before fusion ({@code memory.recall.candidates})
     * @param executor   embeds the query while the full-text leg runs
     */
    public EpisodeRecall(
            EpisodeStore store, EmbeddingModel model, Fusion fusion, int candidates, ExecutorService executor) {
        this(store, model, fusion, candidates, executor, null, e -> {});
    }

    /**
     * Hybrid recall on the engine when {@code pipeline} is not {@code null} (issue 36 item 4): one {@code hybrid}
     * query ({@link EpisodeEngineHybrid}) instead of two legs fused here; the same loading, checks and cut after.
     *
     * @param store        the store of the caller's transaction
     * @param model        the episodic embedding model
     * @param fusion       how hybrid recall fuses its legs client-side
     * @param candidates   candidates per leg before fusion ({@code memory.recall.candidates})
     * @param executor     embeds the query while the full-text leg runs
     * @param pipeline     the engine's search pipeline, or {@code null} for client-side fusion
     * @param engineFailed told when the engine query fails ({@code SearchException} or {@code LinkageError}); that
     *                     call then fuses client-side
     */
    public EpisodeRecall(
            EpisodeStore store,
            EmbeddingModel model,
            Fusion fusion,
            int candidates,
            ExecutorService executor,
            HybridPipeline pipeline,
            Consumer<Throwable> engineFailed) {
        this.store = store;
        this.model = model;
        this.fusion = fusion;
        this.candidates = candidates;
        this.executor = executor;
        this.pipeline = pipeline;
        this.engineFailed = engineFailed;
    }

    /**
     * @param namespace    the checked namespace
     * @param query        the NFC query
     * @param topK         at most this many hits
     * @param threshold    the vector leg's minimum cosine similarity
     * @param category     only this category, or {@code null}
     * @param failuresOnly only failures
     * @param mode         the legs
     * @param now          the time expiry is judged at
     * @return the hits, best first
     */
    public List<EpisodeSearchResult> search(
            MemoryNamespace namespace,
            String query,
            int topK,
            double threshold,
            EpisodeCategory category,
            boolean failuresOnly,
            RecallMode mode,
            Instant now) {
        int fetch = category == null ? topK : topK * 2;
        List<ScoredId> ranked;
        switch (mode) {
            case VECTOR -> {
                float[] vector = org.agentmemory.platform.embedding.QueryVectors.unlessUnreadable(model, query);
                ranked = vector == null
                        ? List.of()
                        : store.vectorLeg(namespace, model.name(), vector, fetch, threshold, failuresOnly, now);
            }
            case FULL_TEXT -> ranked = store.fullTextLeg(namespace, query, fetch, failuresOnly, now);
            default -> {
                int depth = Math.max(fetch, candidates);
                // The query is embedded on a pool thread while the full-text leg runs here.
                org.agentmemory.platform.embedding.Overlap<float[]> embedding =
                        org.agentmemory.platform.embedding.Overlap.start(
                                () -> org.agentmemory.platform.embedding.QueryVectors.orNull(model, query), executor);
                // Radial k-NN search (the cosine threshold on the engine) is approximate: HNSW traversal can stop
                // before an episode above the threshold (EpisodeEngineHybridOpenSearchIT saw it miss the nearest
                // one). With a threshold the legs stay here, where the threshold is exact.
                List<ScoredId> engine = pipeline == null || threshold > -1.0
                        ? null
                        : engine(namespace, query, embedding.join(), depth, threshold, category, failuresOnly, now);
                if (engine != null) {
                    ranked = engine;
                } else {
                    List<ScoredId> fullText = store.fullTextLeg(namespace, query, depth, failuresOnly, now);
                    float[] queryVector = embedding.join();
                    Map<String, List<ScoredId>> legs = new LinkedHashMap<>();
                    legs.put(
                            RecallMode.VECTOR.value(),
                            queryVector == null
                                    ? List.of()
                                    : store.vectorLeg(
                                            namespace, model.name(), queryVector, depth, threshold, failuresOnly, now));
                    legs.put(RecallMode.FULL_TEXT.value(), fullText);
                    ranked = new ArrayList<>();
                    for (FusedHit hit : fusion.fuse(legs)) {
                        ranked.add(new ScoredId(hit.id(), hit.score()));
                    }
                }
            }
        }
        if (ranked.size() > fetch) {
            ranked = ranked.subList(0, fetch);
        }
        List<Long> ids = new ArrayList<>(ranked.size());
        ranked.forEach(hit -> ids.add(Long.valueOf(hit.id())));
        Map<Long, org.agentmemory.episodic.entity.Episode> loaded = store.load(ids);
        List<EpisodeSearchResult> results = new ArrayList<>();
        for (ScoredId hit : ranked) {
            org.agentmemory.episodic.entity.Episode e = loaded.get(Long.valueOf(hit.id()));
            if (e == null
                    || !EpisodeMapper.inNamespace(e, namespace)
                    || (failuresOnly && !e.isFailure())
                    || (e.getExpiresAt() != null && e.getExpiresAt().isBefore(now))
                    || (category != null && !category.value().equals(e.getCategory()))) {
                continue;
            }
            results.add(new EpisodeSearchResult(EpisodeMapper.toRecord(e), hit.score()));
            if (results.size() == topK) {
                break;
            }
        }
        return results;
    }

    /** @return the engine's fused hits, or {@code null} to fuse client-side (no vector, or the query failed) */
    private List<ScoredId> engine(
            MemoryNamespace namespace,
            String query,
            float[] vector,
            int depth,
            double threshold,
            EpisodeCategory category,
            boolean failuresOnly,
            Instant now) {
        if (vector == null) { // an unreadable query has no vector: full text alone, client-side
            return null;
        }
        try {
            return EpisodeEngineHybrid.search(
                    store.entityManager(),
                    namespace,
                    query,
                    vector,
                    model.name(),
                    depth,
                    threshold,
                    category,
                    failuresOnly,
                    now,
                    pipeline);
        } catch (org.hibernate.search.util.common.SearchException | LinkageError e) {
            // The pipeline may be gone, or the Elasticsearch extension missing: fuse here, ask again later.
            engineFailed.accept(e);
            return null;
        }
    }
}
