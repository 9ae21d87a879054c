package org.agentmemory.platform.embedding;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.HuggingFaceTokenCountEstimator;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Sentence-embedding models run in-process with ONNX Runtime through langchain4j's BERT encoder (spec §10.5:
 * 384 dimensions, L2-normalised). The model files and tokenizers ship inside langchain4j's Maven jars, which sit
 * beside ONNX Runtime and DJL's tokenizer outside the EAR (the WildFly module {@code org.agentmemory.embedding} or
 * an Open Liberty shared library, decision 0022; on the class path in tests and programs); nothing is downloaded.
 * Variants, by configuration name ({@link #forName}):
 *
 * <table>
 * <caption>Models</caption>
 * <tr><th>name</th><th>model</th><th>pooling</th><th>window (word pieces)</th><th>query / passage prefix</th></tr>
 * <tr><td>{@code all-minilm-l6-v2}</td><td>sentence-transformers all-MiniLM-L6-v2, float32</td><td>mean</td>
 *     <td>256</td><td>none</td></tr>
 * <tr><td>{@code all-minilm-l6-v2-q}</td><td>the same, int8-quantized</td><td>mean</td><td>256</td><td>none</td></tr>
 * <tr><td>{@code bge-small-en-v1.5-q}</td><td>BAAI bge-small-en-v1.5, int8-quantized</td><td>CLS</td><td>512</td>
 *     <td>{@value #BGE_QUERY_INSTRUCTION} / none</td></tr>
 * </table>
 *
 * Quantized variants are 2–4× cheaper per text and give slightly different vectors; never mix two variants'
 * vectors in one index (each stored vector records its model's name). Queries go through
 * {@link #embedQuery(String)}, which adds the instruction a model was trained with for short queries against
 * passages; stored texts through {@link #embed}/{@link #embedAll}.
 *
 * <p>Each (variant, thread count) loads once per process, on first use; loading takes about a second.
 * Thread-safe: ONNX Runtime sessions and the Rust tokenizer may be used concurrently. Texts are embedded one
 * after the other on the caller's thread (langchain4j's thread pool is not used, which suits a Jakarta EE
 * container); each inference runs on ONNX Runtime's native intra-op threads, by default one per physical
 * core, bounded with {@link #withThreads(int)}. Those threads never spin-wait between inferences
 * ({@code session.intra_op.allow_spinning=0}): a spinning pool burns the cores that request threads need.
 * Before the first DJL class loads (the tokenizer library), {@code ai.djl.offline=true} and
 * {@code OPT_OUT_TRACKING=true} are set as system properties unless already set: DJL would otherwise try to
 * reach the EC2 metadata service and its telemetry endpoint, and would download a missing native library
 * instead of failing.
 *
 * <p>Long texts: only the first {@value #MAX_EMBEDDED_CODE_POINTS} code points are embedded. Beyond a model's
 * window (including [CLS] and [SEP]) a text is chunked ({@link TextChunker}: sentences, then words;
 * {@value #OVERLAP} word pieces of overlap), each chunk embedded, and the chunk
 * vectors averaged weighted by their word-piece counts, then re-normalised. All variants share the BERT
 * uncased word-piece vocabulary, so one tokenizer counts for all of them.
 */
public final class InProcessEmbeddingModel implements EmbeddingModel {

    /**
     * Longest text embedded, in code points: a longer text is embedded by its first this many code points
     * (about 8 chunks of a 512-piece window); message search indexes the same head
     * ({@code MessageTexts}). Without this bound a multi-megabyte message would hold its transaction for minutes, and the native tokenizer
     * aborts the JVM on inputs of several megabytes.
     */
    public static final int MAX_EMBEDDED_CODE_POINTS = 16_384;

    /**
     * Word pieces (including [CLS] and [SEP]) of a query that are embedded: a longer query, such as a whole message
     * passed as a query, is embedded by its beginning, because inference time grows with the sequence (figures in
     * docs/benchmarks.md, long queries). The full-text leg still searches up to 200 of the query's words.
     */
    public static final int QUERY_WINDOW = 128;

    /** Word pieces of overlap between consecutive chunks. */
    public static final int OVERLAP = 32;
    /** Vector length of every variant. */
    public static final int DIMENSION = 384;
    /** The instruction bge-small-en-v1.5 was trained with for short retrieval queries (its model card). */
    public static final String BGE_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

    /** all-MiniLM-L6-v2 in float32, with ONNX Runtime's default thread count. */
    public static final InProcessEmbeddingModel MINILM = new InProcessEmbeddingModel(Variant.MINILM, 0);
    /** all-MiniLM-L6-v2 quantized to int8, with ONNX Runtime's default thread count. */
    public static final InProcessEmbeddingModel MINILM_QUANTIZED = new InProcessEmbeddingModel(Variant.MINILM_Q, 0);
    /** bge-small-en-v1.5 quantized to int8, with ONNX Runtime's default thread count. */
    public static final InProcessEmbeddingModel BGE_SMALL_QUANTIZED =
            new InProcessEmbeddingModel(Variant.BGE_SMALL_Q, 0);

    /** Loaded models, one per (variant, thread count) in use. */
    private static final ConcurrentMap<String, dev.langchain4j.model.embedding.EmbeddingModel> LOADED =
            new ConcurrentHashMap<>();

    /** The ONNX Runtime session of each loaded model, by the same key: native memory until closed. */
    private static final ConcurrentMap<String, OrtSession> SESSIONS = new ConcurrentHashMap<>();

    /**
     * Inferences hold the read lock, {@link #closeSessions()} the write lock: a session is never closed under a
     * running inference (ONNX Runtime would read freed memory).
     */
    private static final ReadWriteLock SESSIONS_LOCK = new ReentrantReadWriteLock();

    private static final Logger LOG = Logger.getLogger(InProcessEmbeddingModel.class.getName());
    // langchain4j's embedAll runs on this executor: the calling thread, no pool inside the application server.
    private static final Executor CALLER_THREAD = Runnable::run;

    private final Variant variant;
    private final int threads;
    private final Supplier<dev.langchain4j.model.embedding.EmbeddingModel> model;

    private InProcessEmbeddingModel(Variant variant, int threads) {
        this.variant = variant;
        this.threads = threads;
        this.model = () -> LOADED.computeIfAbsent(variant.name + "/" + threads, key -> load(key, variant, threads));
    }

    /**
     * @param name a variant's configuration name (case-insensitive, surrounding blanks ignored)
     * @return that variant with ONNX Runtime's default thread count, or empty for an unknown name
     */
    public static Optional<InProcessEmbeddingModel> forName(String name) {
        String key = name.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(Variant.values())
                .filter(v -> v.name.equals(key))
                .findFirst()
                .map(v -> new InProcessEmbeddingModel(v, 0));
    }

    /** @return every variant's configuration name, in the table's order */
    public static List<String> names() {
        return Arrays.stream(Variant.values()).map(v -> v.name).toList();
    }

    /**
     * The same model with a bounded number of ONNX Runtime intra-op threads: at most that many cores are busy
     * embedding at once per calling thread, which keeps a background embedder from starving request threads
     * on a small machine. Vectors are identical whatever the thread count.
     *
     * @param intraOpThreads threads per inference, ≥ 1; 0 means ONNX Runtime's default (one per physical core)
     * @return the model (an instance per thread count; the session loads on first use)
     * @throws IllegalArgumentException if {@code intraOpThreads} is negative
     */
    public InProcessEmbeddingModel withThreads(int intraOpThreads) {
        if (intraOpThreads < 0) {
            throw new IllegalArgumentException(
                    "intraOpThreads must be >= 0 (0 = ONNX Runtime's default), was " + intraOpThreads);
        }
        return intraOpThreads == threads ? this : new InProcessEmbeddingModel(variant, intraOpThreads);
    }

    /** @return ONNX Runtime intra-op threads per inference; 0 = ONNX Runtime's default */
    public int threads() {
        return threads;
    }

    /** @return the model's window in word pieces, including [CLS] and [SEP] */
    public int window() {
        return variant.window;
    }

    @Override
    public String name() {
        return variant.name;
    }

    /** @return 0.3 for MiniLM (spec §10.3), 0.6 for bge-small-en-v1.5 (its cosine scale runs about 0.3 higher) */
    @Override
    public double defaultScoreThreshold() {
        return variant.threshold;
    }

    @Override
    public int dimension() {
        return DIMENSION;
    }

    @Override
    public float[] embed(String text) {
        return embedAll(List.of(requireText(text, 0))).get(0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A query is embedded by its first model window only (about 510 word pieces, less the instruction): a query
     * states a search intent, and a query of a whole document would otherwise cost one inference per window, up to
     * eight, on the request thread (issue 31 item 2: a 50,000-word query answers within the normal latency).
     */
    @Override
    public float[] embedQuery(String query) {
        if (query == null || query.isBlank()) {
            throw new UnreadableTextException("The query is " + (query == null ? "missing" : "blank"), null);
        }
        try {
            return embedAll(List.of(query), variant.queryPrefix, true).get(0);
        } catch (IllegalArgumentException e) {
            // The library refuses a text its tokenizer reduced to nothing (only U+FFFD, format characters, ...).
            throw new UnreadableTextException(
                    "The query holds nothing the model " + variant.name + " reads: " + e.getMessage(), e);
        }
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return embedAll(texts, "", false);
    }

    private List<float[]> embedAll(List<String> texts, String prefix, boolean firstWindowOnly) {
        List<List<TextChunker.Chunk>> chunksPerText = new ArrayList<>(texts.size());
        List<TextSegment> segments = new ArrayList<>();
        int window = firstWindowOnly ? Math.min(variant.window, QUERY_WINDOW) : variant.window;
        int budget = window - 2 - (prefix.isEmpty() ? 0 : TokenizerHolder.wordPieces(prefix));
        for (int i = 0; i < texts.size(); i++) {
            String text = Normalizer.normalize(head(requireText(texts.get(i), i)), Normalizer.Form.NFC);
            // A word piece spans at least one code point, so a text this short always fits the window:
            // skip the extra tokenization (langchain4j still partitions anything beyond 510 pieces).
            List<TextChunker.Chunk> chunks;
            if (text.codePointCount(0, text.length()) <= budget) {
                chunks = List.of(new TextChunker.Chunk(text, 1));
            } else if (firstWindowOnly) {
                chunks = List.of(TokenizerHolder.chunker(budget).first(text));
            } else {
                chunks = TokenizerHolder.chunker(budget).chunk(text);
            }
            chunksPerText.add(chunks);
            chunks.forEach(chunk -> segments.add(TextSegment.from(prefix + chunk.text())));
        }
        List<Embedding> embeddings = segments.isEmpty() ? List.of() : infer(segments);
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

    private List<Embedding> infer(List<TextSegment> segments) {
        Lock read = SESSIONS_LOCK.readLock();
        read.lock();
        try {
            return model.get().embedAll(segments).content();
        } finally {
            read.unlock();
        }
    }

    /**
     * Closes every loaded ONNX Runtime session, after the inferences running on them end, and forgets the models: the
     * next embedding loads its model again. The application calls this when it is undeployed
     * ({@code EmbeddingSessionsBean}): the sessions hold the models' weights in native memory, which a redeployed
     * application's class loader being collected would never free (decision 0022). The native libraries stay loaded.
     *
     * @return the number of sessions closed
     */
    public static int closeSessions() {
        Lock write = SESSIONS_LOCK.writeLock();
        write.lock();
        try {
            int closed = 0;
            for (String key : List.copyOf(SESSIONS.keySet())) {
                LOADED.remove(key);
                OrtSession session = SESSIONS.remove(key);
                try {
                    session.close();
                    closed++;
                } catch (OrtException e) {
                    LOG.warning(() -> "Cannot close the embedding session of " + key + ": " + e.getMessage());
                }
            }
            return closed;
        } finally {
            write.unlock();
        }
    }

    /** @return the number of ONNX Runtime sessions loaded now (for tests and the undeploy log line) */
    public static int openSessions() {
        return SESSIONS.size();
    }

    /**
     * Word pieces of a text as the models' (shared BERT uncased) tokenizer counts them, without [CLS] and [SEP].
     *
     * @param text the text
     * @return the count
     */
    public static int wordPieces(String text) {
        return TokenizerHolder.wordPieces(text);
    }

    /** The first {@link #MAX_EMBEDDED_CODE_POINTS} code points of a text (the text itself when shorter). */
    static String head(String text) {
        if (text.length() <= MAX_EMBEDDED_CODE_POINTS) {
            return text;
        }
        int end = text.offsetByCodePoints(0, Math.min(MAX_EMBEDDED_CODE_POINTS, text.codePointCount(0, text.length())));
        return text.substring(0, end);
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
        return variant.name + (threads == 0 ? "" : " (" + threads + " threads)");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof InProcessEmbeddingModel m && m.variant == variant && m.threads == threads;
    }

    @Override
    public int hashCode() {
        return variant.hashCode() * 31 + threads;
    }

    /**
     * Keeps DJL from reaching the network; must run before any DJL class is initialised. The native libraries of
     * DJL's tokenizer and of ONNX Runtime load once per JVM, into the class loader of the module (or shared library)
     * that holds them, which outlives a redeployed EAR (decision 0022).
     */
    static void preventNetworkAccess() {
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");
        }
        if (System.getProperty("OPT_OUT_TRACKING") == null) {
            System.setProperty("OPT_OUT_TRACKING", "true");
        }
    }

    private static <T> T load(String what, Supplier<T> loader) {
        preventNetworkAccess();
        long start = System.nanoTime();
        T loaded = loader.get();
        LOG.info(() -> "Loaded " + what + " in " + (System.nanoTime() - start) / 1_000_000 + " ms");
        return loaded;
    }

    /**
     * Builds the ONNX Runtime session from the model file inside the langchain4j jar, with the requested
     * intra-op thread count (langchain4j's own constructors always use the default session options), and
     * wraps it in langchain4j's encoder (tokenization, pooling, normalisation) run on the caller's thread.
     */
    private static dev.langchain4j.model.embedding.EmbeddingModel load(String key, Variant variant, int threads) {
        return load(
                "embedding model " + variant.name + (threads == 0 ? "" : " with " + threads + " intra-op threads"),
                () -> {
                    try (InputStream onnx = resource(variant.file + ".onnx");
                            InputStream tokenizer = resource(variant.file + "-tokenizer.json");
                            OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
                        if (threads > 0) {
                            options.setIntraOpNumThreads(threads);
                            options.setInterOpNumThreads(1);
                        }
                        options.addConfigEntry("session.intra_op.allow_spinning", "0");
                        options.addConfigEntry("session.inter_op.allow_spinning", "0");
                        OrtEnvironment environment = OrtEnvironment.getEnvironment();
                        OrtSession session = environment.createSession(onnx.readAllBytes(), options);
                        SESSIONS.put(key, session);
                        OnnxBertBiEncoder encoder =
                                new OnnxBertBiEncoder(environment, session, tokenizer, variant.pooling);
                        return new CallerThreadModel(encoder);
                    } catch (IOException | OrtException e) {
                        throw new IllegalStateException("Cannot load embedding model " + variant.name, e);
                    }
                });
    }

    /**
     * A model file, looked up first where ONNX Runtime was loaded from (the model jars sit beside it in the WildFly
     * module or Liberty library, whose own class loader sees them whatever a deployment imports from it), then in
     * this class's class loader (one class path in tests and programs).
     */
    private static InputStream resource(String name) {
        ClassLoader runtime = OrtEnvironment.class.getClassLoader();
        InputStream in = runtime == null ? null : runtime.getResourceAsStream(name);
        if (in == null) {
            in = InProcessEmbeddingModel.class.getClassLoader().getResourceAsStream(name);
        }
        if (in == null) {
            throw new IllegalStateException(name + " is missing from the class path: add its langchain4j-embeddings-*"
                    + " jar (memory-embedding-runtime), or the module org.agentmemory.embedding to the server");
        }
        return in;
    }

    /** The variants: configuration name, file name in the jar, pooling, window, query instruction. */
    private enum Variant {
        MINILM("all-minilm-l6-v2", "all-minilm-l6-v2", PoolingMode.MEAN, 256, "", 0.3),
        MINILM_Q("all-minilm-l6-v2-q", "all-minilm-l6-v2-q", PoolingMode.MEAN, 256, "", 0.3),
        // bge's cosines run about 0.3 higher than MiniLM's for the same pairs (unrelated ≈ 0.3, not 0.0).
        BGE_SMALL_Q("bge-small-en-v1.5-q", "bge-small-en-v1.5-q", PoolingMode.CLS, 512, BGE_QUERY_INSTRUCTION, 0.6);

        final String name;
        final String file;
        final PoolingMode pooling;
        final int window;
        final String queryPrefix;
        final double threshold;

        Variant(String name, String file, PoolingMode pooling, int window, String queryPrefix, double threshold) {
            this.name = name;
            this.file = file;
            this.pooling = pooling;
            this.window = window;
            this.queryPrefix = queryPrefix;
            this.threshold = threshold;
        }
    }

    /** langchain4j's in-process model over an encoder we built, every text embedded on the caller's thread. */
    private static final class CallerThreadModel extends AbstractInProcessEmbeddingModel {
        private final OnnxBertBiEncoder encoder;

        CallerThreadModel(OnnxBertBiEncoder encoder) {
            super(CALLER_THREAD);
            this.encoder = encoder;
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }
    }

    private static final class TokenizerHolder {
        static final HuggingFaceTokenCountEstimator COUNTER =
                load("the BERT uncased word-piece tokenizer", HuggingFaceTokenCountEstimator::new);
        static final ConcurrentMap<Integer, TextChunker> CHUNKERS = new ConcurrentHashMap<>();

        static int wordPieces(String text) {
            return COUNTER.estimateTokenCountInText(text);
        }

        static TextChunker chunker(int maxPieces) {
            return CHUNKERS.computeIfAbsent(
                    maxPieces, max -> new TextChunker(max, OVERLAP, TokenizerHolder::wordPieces));
        }
    }
}
