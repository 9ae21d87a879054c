package org.agentmemory.platform.embedding;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * A model whose {@link #embedAll(List)} splits the texts into contiguous parts embedded at the same time: the
 * first on the calling thread, the others as tasks on an executor (in the container, its managed executor), or all
 * of them on the executor while the caller waits (the background embedder's threads of lowest priority,
 * {@link BackgroundPriority}). Used
 * by the background embedder while the service is quiet, so that a backlog is embedded on every core: one
 * inference with one ONNX Runtime thread keeps one core busy, and short texts gain little from more intra-op
 * threads (docs/decisions/0005-embedding-models.md: two callers embed about twice as many texts as one). Vectors are
 * those of the wrapped model, in input order. Everything else is delegated. Thread-safe when the wrapped model is.
 */
public final class SplitEmbedding implements EmbeddingModel {

    /** The fewest texts per part: fewer are embedded on the calling thread alone. */
    static final int MIN_PER_PART = 4;

    private final EmbeddingModel model;
    private final Executor executor;
    private final int parts;
    private final boolean callerEmbeds;

    /**
     * @param model    the model
     * @param executor runs the parts after the first
     * @param parts    how many parts at most, ≥ 1 (1: no split)
     * @throws IllegalArgumentException if {@code parts} is below 1
     */
    public SplitEmbedding(EmbeddingModel model, Executor executor, int parts) {
        this(model, executor, parts, true);
    }

    /**
     * @param model        the model
     * @param executor     runs the parts (all of them when {@code callerEmbeds} is false)
     * @param parts        how many parts at most, ≥ 1 (1: no split)
     * @param callerEmbeds whether the calling thread embeds the first part; if not, it only waits for the
     *                     executor's threads (e.g. threads of lower priority, {@link BackgroundPriority})
     * @throws IllegalArgumentException if {@code parts} is below 1
     */
    public SplitEmbedding(EmbeddingModel model, Executor executor, int parts, boolean callerEmbeds) {
        if (parts < 1) {
            throw new IllegalArgumentException("parts must be >= 1: " + parts);
        }
        this.model = model;
        this.executor = executor;
        this.parts = parts;
        this.callerEmbeds = callerEmbeds;
    }

    /**
     * How many callers keep the cores busy without oversubscribing them.
     *
     * @param cores          available processors, ≥ 1
     * @param threadsPerCall ONNX Runtime intra-op threads per call ({@code memory.embedding.threads}); 0 means one
     *                       per core
     * @return {@code cores / threadsPerCall}, at least 1; 1 when one call already uses every core
     */
    public static int callers(int cores, int threadsPerCall) {
        return threadsPerCall <= 0 ? 1 : Math.max(1, cores / threadsPerCall);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        int n = Math.max(1, Math.min(parts, texts.size() / MIN_PER_PART));
        if (n == 1 && callerEmbeds) {
            return model.embedAll(texts);
        }
        List<List<String>> chunks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            chunks.add(texts.subList(texts.size() * i / n, texts.size() * (i + 1) / n));
        }
        List<CompletableFuture<List<float[]>>> others = new ArrayList<>(n);
        for (List<String> chunk : callerEmbeds ? chunks.subList(1, n) : chunks) {
            others.add(CompletableFuture.supplyAsync(() -> model.embedAll(chunk), executor));
        }
        List<float[]> vectors = new ArrayList<>(texts.size());
        RuntimeException failed = null;
        if (callerEmbeds) {
            try {
                vectors.addAll(model.embedAll(chunks.get(0)));
            } catch (RuntimeException e) {
                failed = e;
            }
        }
        // Every part is waited for, even after a failure: none keeps running beyond this call.
        for (CompletableFuture<List<float[]>> other : others) {
            try {
                vectors.addAll(other.join());
            } catch (CompletionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : e;
                if (failed == null) {
                    failed = cause;
                } else {
                    failed.addSuppressed(cause);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
        return vectors;
    }

    @Override
    public String name() {
        return model.name();
    }

    @Override
    public int dimension() {
        return model.dimension();
    }

    @Override
    public float[] embed(String text) {
        return model.embed(text);
    }

    @Override
    public float[] embedQuery(String query) {
        return model.embedQuery(query);
    }

    @Override
    public double defaultScoreThreshold() {
        return model.defaultScoreThreshold();
    }
}
