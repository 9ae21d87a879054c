package org.agentmemory.embedding;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Logger;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.HuggingFaceTokenCountEstimator;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;

/**
 * sentence-transformers all-MiniLM-L6-v2 (spec §10.5: 384 dimensions, mean pooling, L2-normalised) run
 * in-process with ONNX Runtime through langchain4j, in two variants: {@link #FLOAT} (default) and the
 * int8-{@link #QUANTIZED} one (about 4× smaller and 2–3× faster, slightly different vectors: do not mix
 * the two in one index).
 *
 * <p>The model file, tokenizer and native libraries ship inside the Maven jars; nothing is downloaded.
 * Before the first DJL class loads (the tokenizer library), {@code ai.djl.offline=true} and
 * {@code OPT_OUT_TRACKING=true} are set as system properties unless already set: DJL would otherwise try
 * to reach the EC2 metadata service and its telemetry endpoint, and would download a missing native
 * library instead of failing.
 *
 * <p>Each variant loads once per process, on first use (lazy holder); loading takes about a second.
 * Thread-safe: ONNX Runtime sessions and the Rust tokenizer may be used concurrently. Embedding runs on the
 * caller's thread (no thread pool is created, which suits a Jakarta EE container).
 *
 * <p>Long texts: the model's window is {@value #WINDOW} word pieces including [CLS] and [SEP]; longer texts
 * are chunked ({@link TextChunker}: sentences, then words; {@value #OVERLAP} word pieces of overlap), each
 * chunk embedded, and the chunk vectors averaged weighted by their word-piece counts, then re-normalised.
 */
public final class MiniLmEmbeddingModel implements EmbeddingModel {

    /** Word pieces the model was trained on, including [CLS] and [SEP]. */
    public static final int WINDOW = 256;
    /** Word pieces of overlap between consecutive chunks. */
    public static final int OVERLAP = 32;
    /** Vector length. */
    public static final int DIMENSION = 384;

    /** all-MiniLM-L6-v2 in float32: the default. */
    public static final MiniLmEmbeddingModel FLOAT = new MiniLmEmbeddingModel("all-minilm-l6-v2",
            () -> FloatHolder.MODEL);
    /** all-MiniLM-L6-v2 quantized to int8. */
    public static final MiniLmEmbeddingModel QUANTIZED = new MiniLmEmbeddingModel("all-minilm-l6-v2-q",
            () -> QuantizedHolder.MODEL);

    private static final Logger LOG = Logger.getLogger(MiniLmEmbeddingModel.class.getName());
    // The model runs on the calling thread: no unmanaged threads inside the application server.
    private static final Executor CALLER_THREAD = Runnable::run;

    private final String name;
    private final Supplier<dev.langchain4j.model.embedding.EmbeddingModel> model;

    private MiniLmEmbeddingModel(String name,
            Supplier<dev.langchain4j.model.embedding.EmbeddingModel> model) {
        this.name = name;
        this.model = model;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int dimension() {
        return DIMENSION;
    }

    @Override
    public float[] embed(String text) {
        return embedAll(List.of(requireText(text, 0))).get(0);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        List<List<TextChunker.Chunk>> chunksPerText = new ArrayList<>(texts.size());
        List<TextSegment> segments = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String text = Normalizer.normalize(requireText(texts.get(i), i), Normalizer.Form.NFC);
            // A word piece spans at least one code point, so a text this short always fits the window:
            // skip the extra tokenization (langchain4j still partitions anything beyond 510 pieces).
            List<TextChunker.Chunk> chunks = text.codePointCount(0, text.length()) <= WINDOW - 2
                    ? List.of(new TextChunker.Chunk(text, 1))
                    : TokenizerHolder.CHUNKER.chunk(text);
            chunksPerText.add(chunks);
            chunks.forEach(chunk -> segments.add(TextSegment.from(chunk.text())));
        }
        List<Embedding> embeddings = segments.isEmpty() ? List.of() : model.get().embedAll(segments).content();
        List<float[]> vectors = new ArrayList<>(texts.size());
        int next = 0;
        for (List<TextChunker.Chunk> chunks : chunksPerText) {
            List<float[]> parts = new ArrayList<>(chunks.size());
            List<Integer> weights = new ArrayList<>(chunks.size());
            for (TextChunker.Chunk chunk : chunks) {
                parts.add(embeddings.get(next++).vector());
                weights.add(Math.max(1, chunk.tokens()));
            }
            vectors.add(Vectors.weightedMeanNormalized(parts, weights));
        }
        return vectors;
    }

    /**
     * Word pieces of a text as this model's tokenizer counts them, without [CLS] and [SEP].
     *
     * @param text the text
     * @return the count
     */
    public static int wordPieces(String text) {
        return TokenizerHolder.COUNTER.estimateTokenCountInText(text);
    }

    private static String requireText(String text, int index) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("text #" + index + " is " + (text == null ? "missing" : "blank")
                    + "; only non-blank text can be embedded");
        }
        return text;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Keeps DJL from reaching the network; must run before any DJL class is initialised. */
    static void preventNetworkAccess() {
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
        if (System.getProperty("OPT_OUT_TRACKING") == null) {
            System.setProperty("OPT_OUT_TRACKING", "true");
        }
    }

    private static <T> T load(String what, Function<Executor, T> loader) {
        preventNetworkAccess();
        long start = System.nanoTime();
        T loaded = loader.apply(CALLER_THREAD);
        LOG.info(() -> "Loaded " + what + " in " + (System.nanoTime() - start) / 1_000_000 + " ms");
        return loaded;
    }

    private static final class TokenizerHolder {
        static final HuggingFaceTokenCountEstimator COUNTER = load("the all-MiniLM-L6-v2 word-piece tokenizer",
                executor -> new HuggingFaceTokenCountEstimator());
        static final TextChunker CHUNKER = new TextChunker(WINDOW - 2, OVERLAP, COUNTER::estimateTokenCountInText);
    }

    private static final class FloatHolder {
        static final dev.langchain4j.model.embedding.EmbeddingModel MODEL = load("embedding model all-minilm-l6-v2",
                AllMiniLmL6V2EmbeddingModel::new);
    }

    private static final class QuantizedHolder {
        static final dev.langchain4j.model.embedding.EmbeddingModel MODEL = load("embedding model all-minilm-l6-v2-q",
                AllMiniLmL6V2QuantizedEmbeddingModel::new);
    }
}
