package org.agentmemory.platform.config;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.agentmemory.api.config.MemorySettings;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.embedding.Embeddings;
import org.agentmemory.platform.ranking.Fusion;
import org.agentmemory.platform.ranking.HybridPipeline;
import org.agentmemory.platform.ranking.ReciprocalRankFusion;
import org.agentmemory.platform.ranking.WeightedScoreFusion;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.eclipse.microprofile.config.Config;

/**
 * The configuration in effect, read once from MicroProfile Config and validated at start-up (keys and
 * meanings: {@link MemorySettings}). A bad value fails the deployment with a message that names the key,
 * the value and what is allowed.
 */
@ApplicationScoped
public class Settings {

    @Inject
    Config config;

    private TokenCounter tokenCounter;
    private boolean normalizationEnabled;
    private int offloadThresholdTokens;
    private int metadataMergeAttempts;
    private EmbeddingModel embeddingModel;
    private EmbeddingModel messageEmbeddingModel;
    private int episodicDefaultTtlDays;
    private Fusion recallFusion;
    private HybridPipeline engineHybridPipeline;
    private Duration omissionTtl;
    private Duration conversationIdleTtl;
    private int recallCandidates;
    private double recallNeighborWeight;
    private double embeddingBusyShare;
    private int embeddingThreads;
    private double dbAnalyzeGrowth;
    private int searchMergeHour;
    private int auditRetentionDays;
    private long searchQuietMergeWrites;
    private int searchQuietMergeSeconds;
    private boolean compactionEnabled;
    private boolean inlineMessageEmbedding;
    private Map<String, Integer> compactionModelWindows;
    private Map<String, String> compactionToolPolicies;
    private Map<String, String> ejbCallerTenants;

    @PostConstruct
    void read() {
        String tokenizer = config.getOptionalValue(MemorySettings.TOKENIZER, String.class)
                .orElse(MemorySettings.Defaults.TOKENIZER);
        try {
            tokenCounter = TokenCounters.forName(tokenizer);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(MemorySettings.TOKENIZER + ": " + e.getMessage(), e);
        }
        normalizationEnabled = config.getOptionalValue(MemorySettings.NORMALIZATION_ENABLED, Boolean.class)
                .orElse(MemorySettings.Defaults.NORMALIZATION_ENABLED);
        offloadThresholdTokens = intValue(
                MemorySettings.OFFLOAD_THRESHOLD_TOKENS,
                MemorySettings.Defaults.OFFLOAD_THRESHOLD_TOKENS,
                v -> v >= 1,
                "an integer ≥ 1 (tokens)");
        long ttlSeconds = config.getOptionalValue(MemorySettings.OMISSION_TTL_SECONDS, Long.class)
                .orElse(MemorySettings.Defaults.OMISSION_TTL_SECONDS);
        if (ttlSeconds < 0) {
            throw new IllegalStateException(MemorySettings.OMISSION_TTL_SECONDS + " is " + ttlSeconds
                    + "; it must be 0 (never expires) or a number of seconds.");
        }
        omissionTtl = ttlSeconds == 0 ? null : Duration.ofSeconds(ttlSeconds);
        long idleSeconds = config.getOptionalValue(MemorySettings.CONVERSATION_IDLE_TTL_SECONDS, Long.class)
                .orElse(MemorySettings.Defaults.CONVERSATION_IDLE_TTL_SECONDS);
        if (idleSeconds < 0) {
            throw new IllegalStateException(MemorySettings.CONVERSATION_IDLE_TTL_SECONDS + " is " + idleSeconds
                    + "; it must be 0 (idle conversations are kept) or a number of seconds.");
        }
        conversationIdleTtl = idleSeconds == 0 ? null : Duration.ofSeconds(idleSeconds);
        metadataMergeAttempts = intValue(
                MemorySettings.METADATA_MERGE_ATTEMPTS,
                MemorySettings.Defaults.METADATA_MERGE_ATTEMPTS,
                v -> v >= 1,
                "an integer ≥ 1 (attempts)");
        String embedding = config.getOptionalValue(MemorySettings.RECALL_EMBEDDING, String.class)
                .orElse(MemorySettings.Defaults.RECALL_EMBEDDING)
                .strip()
                .toLowerCase(Locale.ROOT);
        if (!embedding.equals("background") && !embedding.equals("inline")) {
            throw new IllegalStateException(MemorySettings.RECALL_EMBEDDING + " is '" + embedding
                    + "'; it must be background or inline. Default: " + MemorySettings.Defaults.RECALL_EMBEDDING);
        }
        inlineMessageEmbedding = embedding.equals("inline");
        compactionEnabled = config.getOptionalValue(MemorySettings.COMPACTION_ENABLED, Boolean.class)
                .orElse(MemorySettings.Defaults.COMPACTION_ENABLED);
        String windows = config.getOptionalValue(MemorySettings.COMPACTION_MODEL_WINDOWS, String.class)
                .orElse(MemorySettings.Defaults.COMPACTION_MODEL_WINDOWS);
        compactionModelWindows = ConfigTables.parsePositiveInts(MemorySettings.COMPACTION_MODEL_WINDOWS, windows);
        String policies = config.getOptionalValue(MemorySettings.COMPACTION_TOOL_POLICIES, String.class)
                .orElse(MemorySettings.Defaults.COMPACTION_TOOL_POLICIES);
        compactionToolPolicies = ConfigTables.parse(MemorySettings.COMPACTION_TOOL_POLICIES, policies);
        ejbCallerTenants = Map.copyOf(ConfigTables.parse(
                MemorySettings.SECURITY_EJB_TENANTS,
                config.getOptionalValue(MemorySettings.SECURITY_EJB_TENANTS, String.class)
                        .orElse("")));
        String model = config.getOptionalValue(MemorySettings.EMBEDDING_MODEL, String.class)
                .orElse(MemorySettings.Defaults.EMBEDDING_MODEL);
        int threads = intValue(
                MemorySettings.EMBEDDING_THREADS,
                MemorySettings.Defaults.EMBEDDING_THREADS,
                v -> v >= 0 && v <= 64,
                "an integer from 0 to 64 (0 = ONNX Runtime's default)");
        embeddingThreads = threads;
        embeddingModel = model(MemorySettings.EMBEDDING_MODEL, model, threads);
        messageEmbeddingModel = model(
                MemorySettings.MESSAGE_EMBEDDING_MODEL,
                config.getOptionalValue(MemorySettings.MESSAGE_EMBEDDING_MODEL, String.class)
                        .orElse(MemorySettings.Defaults.MESSAGE_EMBEDDING_MODEL),
                threads);
        episodicDefaultTtlDays = intValue(
                MemorySettings.EPISODIC_DEFAULT_TTL_DAYS,
                MemorySettings.Defaults.EPISODIC_DEFAULT_TTL_DAYS,
                v -> v >= 0,
                "an integer ≥ 0 (days; 0 = never)");
        recallFusion = fusion();
        engineHybridPipeline = engineHybrid();
        recallCandidates = intValue(
                MemorySettings.RECALL_CANDIDATES,
                MemorySettings.Defaults.RECALL_CANDIDATES,
                v -> v >= 1 && v <= 1000,
                "an integer from 1 to 1000");
        auditRetentionDays = intValue(
                MemorySettings.AUDIT_RETENTION_DAYS,
                MemorySettings.Defaults.AUDIT_RETENTION_DAYS,
                v -> v >= 0 && v <= 36_500,
                "a number of days from 0 (keep forever) to 36500");
        searchMergeHour = intValue(
                MemorySettings.SEARCH_MERGE_HOUR,
                MemorySettings.Defaults.SEARCH_MERGE_HOUR,
                v -> v >= -1 && v <= 23,
                "an hour from 0 to 23 (UTC), or -1 for never");
        searchQuietMergeWrites = config.getOptionalValue(MemorySettings.SEARCH_QUIET_MERGE_WRITES, Long.class)
                .orElse(MemorySettings.Defaults.SEARCH_QUIET_MERGE_WRITES);
        if (searchQuietMergeWrites < 0) {
            throw new IllegalStateException(MemorySettings.SEARCH_QUIET_MERGE_WRITES + " is " + searchQuietMergeWrites
                    + "; it must be a count ≥ 0 (0 = never). Default: "
                    + MemorySettings.Defaults.SEARCH_QUIET_MERGE_WRITES);
        }
        searchQuietMergeSeconds = intValue(
                MemorySettings.SEARCH_QUIET_MERGE_SECONDS,
                MemorySettings.Defaults.SEARCH_QUIET_MERGE_SECONDS,
                v -> v >= 1,
                "an integer ≥ 1 (seconds)");
        recallNeighborWeight = doubleValue(
                MemorySettings.RECALL_NEIGHBOR_WEIGHT,
                MemorySettings.Defaults.RECALL_NEIGHBOR_WEIGHT,
                v -> v >= 0 && v <= 1,
                "a number from 0 to 1");
        embeddingBusyShare = doubleValue(
                MemorySettings.EMBEDDING_BUSY_SHARE,
                MemorySettings.Defaults.EMBEDDING_BUSY_SHARE,
                v -> v > 0 && v <= 1,
                "a number above 0, at most 1");
        dbAnalyzeGrowth = doubleValue(
                MemorySettings.DB_ANALYZE_GROWTH,
                MemorySettings.Defaults.DB_ANALYZE_GROWTH,
                v -> v >= 0 && !Double.isInfinite(v),
                "a finite number ≥ 0 (0 = never)");
    }

    /** @return {@value MemorySettings#EMBEDDING_BUSY_SHARE}, in (0, 1] */
    public double embeddingBusyShare() {
        return embeddingBusyShare;
    }

    /** @return {@value MemorySettings#AUDIT_RETENTION_DAYS}: days audit rows are kept, 0 for ever */
    public int auditRetentionDays() {
        return auditRetentionDays;
    }

    /** @return {@value MemorySettings#SEARCH_MERGE_HOUR}: 0–23 (UTC), or −1 for never */
    public int searchMergeHour() {
        return searchMergeHour;
    }

    /** @return {@value MemorySettings#DB_ANALYZE_GROWTH}: a fraction, ≥ 0 (0 = never) */
    public double dbAnalyzeGrowth() {
        return dbAnalyzeGrowth;
    }

    /** @return {@value MemorySettings#SEARCH_QUIET_MERGE_WRITES}: documents, ≥ 0 (0 = never) */
    public long searchQuietMergeWrites() {
        return searchQuietMergeWrites;
    }

    /** @return {@value MemorySettings#SEARCH_QUIET_MERGE_SECONDS}: seconds, ≥ 1 */
    public int searchQuietMergeSeconds() {
        return searchQuietMergeSeconds;
    }

    /** @return {@value MemorySettings#RECALL_NEIGHBOR_WEIGHT}, 0–1 */
    public double recallNeighborWeight() {
        return recallNeighborWeight;
    }

    private Fusion fusion() {
        String kind = config.getOptionalValue(MemorySettings.RECALL_FUSION, String.class)
                .orElse(MemorySettings.Defaults.RECALL_FUSION)
                .strip()
                .toLowerCase(Locale.ROOT);
        switch (kind) {
            case "rrf":
                return new ReciprocalRankFusion(intValue(
                        MemorySettings.RECALL_RRF_K,
                        MemorySettings.Defaults.RECALL_RRF_K,
                        v -> v >= 1,
                        "an integer ≥ 1"));
            case "weighted":
                double vector =
                        weight(MemorySettings.RECALL_VECTOR_WEIGHT, MemorySettings.Defaults.RECALL_VECTOR_WEIGHT);
                double fullText =
                        weight(MemorySettings.RECALL_FULL_TEXT_WEIGHT, MemorySettings.Defaults.RECALL_FULL_TEXT_WEIGHT);
                return new WeightedScoreFusion(
                        Map.of(RecallMode.VECTOR.value(), vector, RecallMode.FULL_TEXT.value(), fullText));
            default:
                throw new IllegalStateException(MemorySettings.RECALL_FUSION + " is '" + kind
                        + "'; it must be rrf or weighted. Default: " + MemorySettings.Defaults.RECALL_FUSION);
        }
    }

    /** The pipeline {@value MemorySettings#SEARCH_ENGINE_HYBRID} {@code auto} asks for, fusing as the service would. */
    private HybridPipeline engineHybrid() {
        String mode = config.getOptionalValue(MemorySettings.SEARCH_ENGINE_HYBRID, String.class)
                .orElse(MemorySettings.Defaults.SEARCH_ENGINE_HYBRID)
                .strip()
                .toLowerCase(Locale.ROOT);
        if (mode.equals("off")) {
            return null;
        }
        if (!mode.equals("auto")) {
            throw new IllegalStateException(MemorySettings.SEARCH_ENGINE_HYBRID + " is '" + mode
                    + "'; it must be auto or off. Default: " + MemorySettings.Defaults.SEARCH_ENGINE_HYBRID);
        }
        if (recallFusion instanceof WeightedScoreFusion) {
            return HybridPipeline.weighted(
                    weight(MemorySettings.RECALL_FULL_TEXT_WEIGHT, MemorySettings.Defaults.RECALL_FULL_TEXT_WEIGHT),
                    weight(MemorySettings.RECALL_VECTOR_WEIGHT, MemorySettings.Defaults.RECALL_VECTOR_WEIGHT));
        }
        return HybridPipeline.rrf(intValue(
                MemorySettings.RECALL_RRF_K, MemorySettings.Defaults.RECALL_RRF_K, v -> v >= 1, "an integer ≥ 1"));
    }

    private double weight(String key, double defaultValue) {
        return doubleValue(key, defaultValue, v -> v >= 0 && !Double.isInfinite(v), "a finite number ≥ 0");
    }

    private double doubleValue(
            String key, double defaultValue, java.util.function.DoublePredicate valid, String allowed) {
        double value = config.getOptionalValue(key, Double.class).orElse(defaultValue);
        if (!valid.test(value)) { // NaN fails every comparison, so it is never valid
            throw new IllegalStateException(
                    key + " is " + value + "; it must be " + allowed + ". Default: " + defaultValue);
        }
        return value;
    }

    private int intValue(String key, int defaultValue, Predicate<Integer> valid, String allowed) {
        int value = config.getOptionalValue(key, Integer.class).orElse(defaultValue);
        if (!valid.test(value)) {
            throw new IllegalStateException(
                    key + " is " + value + "; it must be " + allowed + ". Default: " + defaultValue);
        }
        return value;
    }

    /** @return the counter named by {@value MemorySettings#TOKENIZER} */
    public TokenCounter tokenCounter() {
        return tokenCounter;
    }

    /** @return {@value MemorySettings#NORMALIZATION_ENABLED} */
    public boolean normalizationEnabled() {
        return normalizationEnabled;
    }

    /** @return {@value MemorySettings#OFFLOAD_THRESHOLD_TOKENS}, tokens */
    public int offloadThresholdTokens() {
        return offloadThresholdTokens;
    }

    /** @return {@value MemorySettings#OMISSION_TTL_SECONDS} as a duration, or {@code null} for no expiry */
    public Duration omissionTtl() {
        return omissionTtl;
    }

    /**
     * @return {@value MemorySettings#CONVERSATION_IDLE_TTL_SECONDS}: how long a conversation may go unwritten before
     *         the idle sweep deletes it, or {@code null} when it never does
     */
    public Duration conversationIdleTtl() {
        return conversationIdleTtl;
    }

    /** @return {@value MemorySettings#COMPACTION_ENABLED} */
    public boolean compactionEnabled() {
        return compactionEnabled;
    }

    /**
     * @return {@value MemorySettings#COMPACTION_MODEL_WINDOWS}: model name → context window in tokens (each ≥ 1),
     *         the overrides of the built-in table
     */
    public Map<String, Integer> compactionModelWindows() {
        return compactionModelWindows;
    }

    /**
     * @return {@value MemorySettings#COMPACTION_TOOL_POLICIES}: tool name → prune policy name, as configured (the
     *         context component checks the names at start-up)
     */
    public Map<String, String> compactionToolPolicies() {
        return compactionToolPolicies;
    }

    /** @return {@value MemorySettings#SECURITY_EJB_TENANTS}: principal name → tenant; never {@code null} */
    public Map<String, String> ejbCallerTenants() {
        return ejbCallerTenants;
    }

    /** @return {@value MemorySettings#METADATA_MERGE_ATTEMPTS} */
    public int metadataMergeAttempts() {
        return metadataMergeAttempts;
    }

    /** @return the model of episodic memory, named by {@value MemorySettings#EMBEDDING_MODEL} (loaded on first use) */
    public EmbeddingModel embeddingModel() {
        return embeddingModel;
    }

    /** @return {@value MemorySettings#EMBEDDING_THREADS}: ONNX Runtime threads per embedding call, 0 = one per core */
    public int embeddingThreads() {
        return embeddingThreads;
    }

    /**
     * @return the model of conversation messages, named by {@value MemorySettings#MESSAGE_EMBEDDING_MODEL} (loaded
     *         on first use)
     */
    public EmbeddingModel messageEmbeddingModel() {
        return messageEmbeddingModel;
    }

    /** Resolves the name only; the model loads on first use. */
    private static EmbeddingModel model(String key, String name, int threads) {
        try {
            return Embeddings.forName(name, threads);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(key + ": " + e.getMessage(), e);
        }
    }

    /** @return {@value MemorySettings#EPISODIC_DEFAULT_TTL_DAYS}, days (0 = never) */
    public int episodicDefaultTtlDays() {
        return episodicDefaultTtlDays;
    }

    /**
     * @return the fusion of hybrid recall: {@value MemorySettings#RECALL_FUSION} with its k or weights; leg names
     *         are {@code vector} and {@code full_text}
     */
    public Fusion recallFusion() {
        return recallFusion;
    }

    /**
     * @return the search pipeline hybrid recall asks the engine for ({@value MemorySettings#SEARCH_ENGINE_HYBRID}
     *         {@code auto}; technique and numbers from {@value MemorySettings#RECALL_FUSION}), or {@code null} when
     *         the setting is {@code off}
     */
    public HybridPipeline engineHybridPipeline() {
        return engineHybridPipeline;
    }

    /** @return {@value MemorySettings#RECALL_CANDIDATES}: candidates per recall leg before fusion */
    public int recallCandidates() {
        return recallCandidates;
    }

    /** @return whether {@value MemorySettings#RECALL_EMBEDDING} is {@code inline} (writes embed their messages) */
    public boolean inlineMessageEmbedding() {
        return inlineMessageEmbedding;
    }
}
