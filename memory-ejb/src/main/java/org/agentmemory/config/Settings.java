package org.agentmemory.config;

import java.time.Duration;
import java.util.function.Predicate;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.agentmemory.api.config.MemorySettings;
import org.agentmemory.compaction.control.ModelWindows;
import org.agentmemory.compaction.control.PrunePolicies;
import org.agentmemory.tokens.TokenCounter;
import org.agentmemory.tokens.TokenCounters;
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
    private Duration omissionTtl;
    private boolean compactionEnabled;
    private ModelWindows modelWindows;
    private PrunePolicies prunePolicies;

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
        offloadThresholdTokens = intValue(MemorySettings.OFFLOAD_THRESHOLD_TOKENS,
                MemorySettings.Defaults.OFFLOAD_THRESHOLD_TOKENS, v -> v >= 1, "an integer ≥ 1 (tokens)");
        long ttlSeconds = config.getOptionalValue(MemorySettings.OMISSION_TTL_SECONDS, Long.class)
                .orElse(MemorySettings.Defaults.OMISSION_TTL_SECONDS);
        if (ttlSeconds < 0) {
            throw new IllegalStateException(MemorySettings.OMISSION_TTL_SECONDS + " is " + ttlSeconds
                    + "; it must be 0 (never expires) or a number of seconds.");
        }
        omissionTtl = ttlSeconds == 0 ? null : Duration.ofSeconds(ttlSeconds);
        metadataMergeAttempts = intValue(MemorySettings.METADATA_MERGE_ATTEMPTS,
                MemorySettings.Defaults.METADATA_MERGE_ATTEMPTS, v -> v >= 1, "an integer ≥ 1 (attempts)");
        compactionEnabled = config.getOptionalValue(MemorySettings.COMPACTION_ENABLED, Boolean.class)
                .orElse(MemorySettings.Defaults.COMPACTION_ENABLED);
        String windows = config.getOptionalValue(MemorySettings.COMPACTION_MODEL_WINDOWS, String.class)
                .orElse(MemorySettings.Defaults.COMPACTION_MODEL_WINDOWS);
        modelWindows = new ModelWindows(ConfigTables.parsePositiveInts(MemorySettings.COMPACTION_MODEL_WINDOWS, windows));
        String policies = config.getOptionalValue(MemorySettings.COMPACTION_TOOL_POLICIES, String.class)
                .orElse(MemorySettings.Defaults.COMPACTION_TOOL_POLICIES);
        try {
            prunePolicies = PrunePolicies.configured(ConfigTables.parse(MemorySettings.COMPACTION_TOOL_POLICIES, policies));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(MemorySettings.COMPACTION_TOOL_POLICIES + ": " + e.getMessage(), e);
        }
    }

    private int intValue(String key, int defaultValue, Predicate<Integer> valid, String allowed) {
        int value = config.getOptionalValue(key, Integer.class).orElse(defaultValue);
        if (!valid.test(value)) {
            throw new IllegalStateException(key + " is " + value + "; it must be " + allowed + ". Default: " + defaultValue);
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

    /** @return {@value MemorySettings#COMPACTION_ENABLED} */
    public boolean compactionEnabled() {
        return compactionEnabled;
    }

    /** @return the built-in model windows merged with {@value MemorySettings#COMPACTION_MODEL_WINDOWS} */
    public ModelWindows modelWindows() {
        return modelWindows;
    }

    /** @return the prune policy resolver with {@value MemorySettings#COMPACTION_TOOL_POLICIES} */
    public PrunePolicies prunePolicies() {
        return prunePolicies;
    }

    /** @return {@value MemorySettings#METADATA_MERGE_ATTEMPTS} */
    public int metadataMergeAttempts() {
        return metadataMergeAttempts;
    }
}
