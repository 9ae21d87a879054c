package org.agentmemory.config;

import java.time.Duration;
import java.util.function.Predicate;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.agentmemory.api.config.MemorySettings;
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

    /** @return {@value MemorySettings#METADATA_MERGE_ATTEMPTS} */
    public int metadataMergeAttempts() {
        return metadataMergeAttempts;
    }
}
