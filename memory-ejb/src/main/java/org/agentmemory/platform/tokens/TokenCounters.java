package org.agentmemory.platform.tokens;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Resolves a {@link TokenCounter} by name, once per process (spec §3 "Resolution happens once per
 * process"). Names: {@code o200k_base} (default), {@code cl100k_base}, {@code heuristic}. If a BPE
 * encoding cannot be loaded, the heuristic is used and one WARNING is logged per process and name.
 *
 * <p>The lazy jtokkit registry loads only the encoding asked for (the eager one loads all of them at start).
 */
public final class TokenCounters {

    /** The default tokenizer. */
    public static final String DEFAULT = "o200k_base";

    private static final Logger LOG = Logger.getLogger(TokenCounters.class.getName());
    private static final Map<String, TokenCounter> RESOLVED = new ConcurrentHashMap<>();
    private static final TokenCounter HEURISTIC = new HeuristicCounter();

    private TokenCounters() {}

    /**
     * @param name {@code o200k_base}, {@code cl100k_base} or {@code heuristic} (case-insensitive)
     * @return the counter, loaded at most once per process
     * @throws IllegalArgumentException for any other name (the message lists the valid names)
     */
    public static TokenCounter forName(String name) {
        String key = name == null ? DEFAULT : name.trim().toLowerCase(Locale.ROOT);
        return switch (key) {
            case "o200k_base", "cl100k_base" -> RESOLVED.computeIfAbsent(key, TokenCounters::load);
            case HeuristicCounter.NAME -> HEURISTIC;
            default ->
                throw new IllegalArgumentException(
                        "Unknown tokenizer '" + name + "'; valid values are o200k_base, cl100k_base and heuristic");
        };
    }

    /** @return the default {@code o200k_base} counter (or the heuristic if it cannot be loaded) */
    public static TokenCounter defaultCounter() {
        return forName(DEFAULT);
    }

    /** @return the byte heuristic counter */
    public static TokenCounter heuristic() {
        return HEURISTIC;
    }

    private static TokenCounter load(String key) {
        try {
            EncodingRegistry registry = Holder.REGISTRY;
            EncodingType type = key.equals("o200k_base") ? EncodingType.O200K_BASE : EncodingType.CL100K_BASE;
            return new JTokkitCounter(key, registry.getEncoding(type));
        } catch (RuntimeException | LinkageError e) {
            LOG.log(
                    Level.WARNING,
                    "Could not load the " + key + " encoding; counting tokens with the byte heuristic"
                            + " (max(1, utf8 bytes / 4)) instead",
                    e);
            return HEURISTIC;
        }
    }

    private static final class Holder {
        static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();
    }
}
