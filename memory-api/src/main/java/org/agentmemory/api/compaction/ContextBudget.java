package org.agentmemory.api.compaction;

import java.io.Serializable;

/**
 * The token budget a rendered conversation history must fit (spec §5.1). All sizes are tokens of the
 * memory's counter, except {@link ActivityLimit#maxInputChars()} and {@link ActivityLimit#maxOutputChars()}
 * which are Unicode code points.
 *
 * <p>Invariants (checked by the constructor, each failure an {@link IllegalArgumentException} naming the
 * field, the rule and the bad value): {@code reserveOutput ≥ 0}, {@code reserveFixed ≥ 0},
 * {@code window > reserveOutput + reserveFixed}, {@code 0 < lowWatermark ≤ highWatermark ≤ 1},
 * {@code minVerbatimTurns ≥ 1}, {@code maxTurns ≥ minVerbatimTurns}, {@code verbatimTokens ≥ 0},
 * {@code oversizeToolTokens > 0}. The two reserve checks are this port's addition: negative reserves would
 * make {@link #available()} larger than the window.
 *
 * @param window             the provider's context window, tokens; required
 * @param reserveOutput      tokens kept free for the model's output (default 8192)
 * @param reserveFixed       tokens kept for the system prompt, tool schemas and framing (default 4096)
 * @param highWatermark      fraction of {@link #available()} the history may fill (default 0.80)
 * @param lowWatermark       reserved for Stage 2, unused by compaction (default 0.60)
 * @param maxTurns           ceiling on the number of turns considered (default 30)
 * @param verbatimTokens     cumulative token budget of the RAW tier (default 15000)
 * @param minVerbatimTurns   newest turns kept RAW regardless of size (default 2)
 * @param oversizeToolTokens a tool output above this many tokens is pruned even inside the RAW tier,
 *                           except in the newest turn (default 2000)
 * @param toolActivityLimit  bounds of the rendered {@code <tool-activity>} block; {@code null} means the
 *                           defaults of {@link ActivityLimit#DEFAULT}
 */
public record ContextBudget(
        int window,
        int reserveOutput,
        int reserveFixed,
        double highWatermark,
        double lowWatermark,
        int maxTurns,
        int verbatimTokens,
        int minVerbatimTurns,
        int oversizeToolTokens,
        ActivityLimit toolActivityLimit)
        implements Serializable {

    /** Default {@link #reserveOutput()}, tokens. */
    public static final int DEFAULT_RESERVE_OUTPUT = 8192;
    /** Default {@link #reserveFixed()}, tokens. */
    public static final int DEFAULT_RESERVE_FIXED = 4096;
    /** Default {@link #highWatermark()}. */
    public static final double DEFAULT_HIGH_WATERMARK = 0.80;
    /** Default {@link #lowWatermark()}. */
    public static final double DEFAULT_LOW_WATERMARK = 0.60;
    /** Default {@link #maxTurns()}. */
    public static final int DEFAULT_MAX_TURNS = 30;
    /** Default {@link #verbatimTokens()}, tokens. */
    public static final int DEFAULT_VERBATIM_TOKENS = 15000;
    /** Default {@link #minVerbatimTurns()}. */
    public static final int DEFAULT_MIN_VERBATIM_TURNS = 2;
    /** Default {@link #oversizeToolTokens()}, tokens. */
    public static final int DEFAULT_OVERSIZE_TOOL_TOKENS = 2000;

    public ContextBudget {
        toolActivityLimit = toolActivityLimit == null ? ActivityLimit.DEFAULT : toolActivityLimit;
        requireAtLeast("reserveOutput", reserveOutput, 0);
        requireAtLeast("reserveFixed", reserveFixed, 0);
        long reserves = (long) reserveOutput + reserveFixed;
        if (window <= reserves) {
            throw new IllegalArgumentException(
                    "ContextBudget.window must be greater than reserveOutput + reserveFixed ("
                            + reserveOutput + " + " + reserveFixed + " = " + reserves + ") but was " + window
                            + "; use a larger window or smaller reserves");
        }
        if (!(lowWatermark > 0.0 && lowWatermark <= highWatermark && highWatermark <= 1.0)) {
            throw new IllegalArgumentException(
                    "ContextBudget watermarks must satisfy 0 < lowWatermark <= highWatermark <= 1"
                            + " but were lowWatermark=" + lowWatermark + ", highWatermark=" + highWatermark);
        }
        requireAtLeast("minVerbatimTurns", minVerbatimTurns, 1);
        if (maxTurns < minVerbatimTurns) {
            throw new IllegalArgumentException("ContextBudget.maxTurns must be >= minVerbatimTurns (" + minVerbatimTurns
                    + ") but was " + maxTurns);
        }
        requireAtLeast("verbatimTokens", verbatimTokens, 0);
        requireAtLeast("oversizeToolTokens", oversizeToolTokens, 1);
    }

    /**
     * A budget with every default of spec §5.1.
     *
     * @param window the provider's context window, tokens; must exceed 12288 (the default reserves)
     * @return the budget
     * @throws IllegalArgumentException when the window does not exceed the reserves
     */
    public static ContextBudget ofWindow(int window) {
        return new ContextBudget(
                window,
                DEFAULT_RESERVE_OUTPUT,
                DEFAULT_RESERVE_FIXED,
                DEFAULT_HIGH_WATERMARK,
                DEFAULT_LOW_WATERMARK,
                DEFAULT_MAX_TURNS,
                DEFAULT_VERBATIM_TOKENS,
                DEFAULT_MIN_VERBATIM_TURNS,
                DEFAULT_OVERSIZE_TOOL_TOKENS,
                ActivityLimit.DEFAULT);
    }

    /** @return {@code max(0, window − reserveOutput − reserveFixed)}, tokens (spec §5.1) */
    public int available() {
        return (int) Math.max(0L, (long) window - reserveOutput - reserveFixed);
    }

    /** @return {@code floor(highWatermark × available)}, the tokens the history may fill (spec §8.5 step 1) */
    public int watermarkTokens() {
        return (int) Math.floor(highWatermark * available());
    }

    /** @return a copy with {@code window} replaced (validated) */
    public ContextBudget withWindow(int value) {
        return new ContextBudget(
                value,
                reserveOutput,
                reserveFixed,
                highWatermark,
                lowWatermark,
                maxTurns,
                verbatimTokens,
                minVerbatimTurns,
                oversizeToolTokens,
                toolActivityLimit);
    }

    /** @return a copy with {@code reserveOutput} replaced (validated) */
    public ContextBudget withReserveOutput(int value) {
        return new ContextBudget(
                window,
                value,
                reserveFixed,
                highWatermark,
                lowWatermark,
                maxTurns,
                verbatimTokens,
                minVerbatimTurns,
                oversizeToolTokens,
                toolActivityLimit);
    }

    /** @return a copy with {@code reserveFixed} replaced (validated) */
    public ContextBudget withReserveFixed(int value) {
        return new ContextBudget(
                window,
                reserveOutput,
                value,
                highWatermark,
                lowWatermark,
                maxTurns,
                verbatimTokens,
                minVerbatimTurns,
                oversizeToolTokens,
                toolActivityLimit);
    }

    /** @return a copy with both watermarks replaced (validated together) */
    public ContextBudget withWatermarks(double low, double high) {
        return new ContextBudget(
                window,
                reserveOutput,
                reserveFixed,
                high,
                low,
                maxTurns,
                verbatimTokens,
                minVerbatimTurns,
                oversizeToolTokens,
                toolActivityLimit);
    }

    /** @return a copy with {@code maxTurns} replaced (validated) */
    public ContextBudget withMaxTurns(int value) {
        return new ContextBudget(
                window,
                reserveOutput,
                reserveFixed,
                highWatermark,
                lowWatermark,
                value,
                verbatimTokens,
                minVerbatimTurns,
                oversizeToolTokens,
                toolActivityLimit);
    }

    /** @return a copy with {@code verbatimTokens} replaced (validated) */
    public ContextBudget withVerbatimTokens(int value) {
        return new ContextBudget(
                window,
                reserveOutput,
                reserveFixed,
                highWatermark,
                lowWatermark,
                maxTurns,
                value,
                minVerbatimTurns,
                oversizeToolTokens,
                toolActivityLimit);
    }

    /** @return a copy with {@code minVerbatimTurns} replaced (validated) */
    public ContextBudget withMinVerbatimTurns(int value) {
        return new ContextBudget(
                window,
                reserveOutput,
                reserveFixed,
                highWatermark,
                lowWatermark,
                maxTurns,
                verbatimTokens,
                value,
                oversizeToolTokens,
                toolActivityLimit);
    }

    /** @return a copy with {@code oversizeToolTokens} replaced (validated) */
    public ContextBudget withOversizeToolTokens(int value) {
        return new ContextBudget(
                window,
                reserveOutput,
                reserveFixed,
                highWatermark,
                lowWatermark,
                maxTurns,
                verbatimTokens,
                minVerbatimTurns,
                value,
                toolActivityLimit);
    }

    /** @return a copy with the tool-activity limit replaced ({@code null} = defaults) */
    public ContextBudget withToolActivityLimit(ActivityLimit value) {
        return new ContextBudget(
                window,
                reserveOutput,
                reserveFixed,
                highWatermark,
                lowWatermark,
                maxTurns,
                verbatimTokens,
                minVerbatimTurns,
                oversizeToolTokens,
                value);
    }

    private static void requireAtLeast(String field, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException("ContextBudget." + field + " must be >= " + min + " but was " + value);
        }
    }

    /**
     * Bounds of a rendered {@code <tool-activity>} block (spec §1.3 {@code Limit}, §8.1, §8.2). Every value
     * must be ≥ 0 ({@link IllegalArgumentException} otherwise).
     *
     * @param maxInvocations invocations rendered in a RAW view before {@code … +N more} (default 12)
     * @param maxInputChars  code points of canonical input JSON shown after {@code in=} (default 200)
     * @param maxOutputChars code points of output shown after {@code out=} in a RAW view (default 400)
     * @param maxBlockTokens tokens a RAW block's lines may take before lines are popped (default 1500)
     */
    public record ActivityLimit(int maxInvocations, int maxInputChars, int maxOutputChars, int maxBlockTokens)
            implements Serializable {

        /** The defaults: 12 invocations, 200 input chars, 400 output chars, 1500 block tokens. */
        public static final ActivityLimit DEFAULT = new ActivityLimit(12, 200, 400, 1500);

        public ActivityLimit {
            check("maxInvocations", maxInvocations);
            check("maxInputChars", maxInputChars);
            check("maxOutputChars", maxOutputChars);
            check("maxBlockTokens", maxBlockTokens);
        }

        private static void check(String field, int value) {
            if (value < 0) {
                throw new IllegalArgumentException(
                        "ContextBudget.ActivityLimit." + field + " must be >= 0 but was " + value);
            }
        }
    }
}
