package org.agentmemory.compaction.control;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.agentmemory.api.compaction.ContextBudget;

/**
 * Context windows by model name (spec §5.2): the lower-cased name's LONGEST matching prefix wins; an
 * unknown, empty or {@code null} name gets {@link #FALLBACK_WINDOW}. Prefixes from configuration are merged
 * over the built-in table (same prefix: configuration wins; new prefix: added). Immutable, thread-safe.
 */
public final class ModelWindows {

    /** Window of an unknown model, tokens. */
    public static final int FALLBACK_WINDOW = 32000;

    /** The built-in table, prefix → window in tokens (spec §5.2). */
    public static final Map<String, Integer> BUILT_IN = Map.ofEntries(
            Map.entry("claude-", 200000),
            Map.entry("gpt-4o", 128000),
            Map.entry("gpt-4.1", 1047576),
            Map.entry("gpt-5", 400000),
            Map.entry("o1", 200000),
            Map.entry("o3", 200000),
            Map.entry("o4", 200000),
            Map.entry("gemini-", 1048576),
            Map.entry("llama-3.1", 131072),
            Map.entry("llama-3.3", 131072),
            Map.entry("mistral-large", 128000));

    private static final ModelWindows DEFAULT = new ModelWindows(Map.of());

    private final Map<String, Integer> windows;

    /**
     * @param overrides prefix → window in tokens, from configuration; prefixes are lower-cased
     *                  (locale-independent); {@code null} means none
     * @throws IllegalArgumentException when a prefix is blank or a window is not positive
     */
    public ModelWindows(Map<String, Integer> overrides) {
        Map<String, Integer> merged = new LinkedHashMap<>(BUILT_IN);
        if (overrides != null) {
            overrides.forEach((prefix, window) -> {
                if (prefix == null || prefix.isBlank()) {
                    throw new IllegalArgumentException(
                            "Model window prefix must not be blank but was '" + prefix + "'");
                }
                if (window == null || window <= 0) {
                    throw new IllegalArgumentException("Model window of prefix '" + prefix
                            + "' must be a positive number of tokens but was " + window);
                }
                merged.put(prefix.toLowerCase(Locale.ROOT), window);
            });
        }
        this.windows = Map.copyOf(merged);
    }

    /** @return the built-in table only */
    public static ModelWindows builtIn() {
        return DEFAULT;
    }

    /**
     * @param model a model name such as {@code claude-sonnet-4}; {@code null} allowed
     * @return the window of the longest matching prefix of the lower-cased name, else 32000 tokens
     */
    public int resolve(String model) {
        if (model == null || model.isEmpty()) {
            return FALLBACK_WINDOW;
        }
        String name = model.toLowerCase(Locale.ROOT);
        String best = null;
        for (String prefix : windows.keySet()) {
            if (name.startsWith(prefix) && (best == null || prefix.length() > best.length())) {
                best = prefix;
            }
        }
        return best == null ? FALLBACK_WINDOW : windows.get(best);
    }

    /** @return whether {@link #resolve} falls back to 32000 for this name (for the one INFO log of spec §5.3) */
    public boolean isFallback(String model) {
        if (model == null || model.isEmpty()) {
            return true;
        }
        String name = model.toLowerCase(Locale.ROOT);
        return windows.keySet().stream().noneMatch(name::startsWith);
    }

    /**
     * The default budget of a model (spec §5.2 {@code build_default_budget}).
     *
     * @param model    the model name, {@code null} allowed
     * @param maxTurns a {@code maxTurns} override, or {@code null} for the default 30
     * @return {@code ContextBudget.ofWindow(resolve(model))}, with {@code maxTurns} replaced if given
     * @throws IllegalArgumentException when an override window does not exceed the default reserves, or the
     *                                  {@code maxTurns} override is below {@code minVerbatimTurns}
     */
    public ContextBudget defaultBudget(String model, Integer maxTurns) {
        ContextBudget budget = ContextBudget.ofWindow(resolve(model));
        return maxTurns == null ? budget : budget.withMaxTurns(maxTurns);
    }
}
