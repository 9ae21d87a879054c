package org.agentmemory.api.config;

/**
 * MicroProfile Config keys of Stage 2 compaction: summaries of the turns a round's commit dropped from the model's
 * context (issue 35 item 4). Every key can be set as a system property, an environment variable
 * ({@code MEMORY_STAGE2_MODEL_URL}) or in {@code microprofile-config.properties}; a value out of range stops the
 * deployment with a message naming the key.
 */
public final class Stage2Settings {

    /**
     * Whether Stage 2 runs: summaries are written after commits that dropped turns, and the context operation shows
     * them. {@code false} writes and shows none (stored summaries stay until their conversation is cleared, deleted or
     * erased). Type: boolean. Default: {@value Defaults#ENABLED}.
     */
    public static final String ENABLED = "memory.stage2.enabled";

    /**
     * API root of the OpenAI-compatible chat model that writes summaries (e.g. {@code https://api.openai.com/v1};
     * {@code /chat/completions} is appended); unset or blank = the extractive summarizer only, no model is ever
     * called. Type: URL. Default: unset.
     */
    public static final String MODEL_URL = "memory.stage2.model-url";

    /** Chat model named in summary requests. Type: string. Default: {@value Defaults#MODEL}. */
    public static final String MODEL = "memory.stage2.model";

    /**
     * Bearer key of the summary endpoint; set it in the server's environment ({@code MEMORY_STAGE2_API_KEY}), never in
     * a file. Type: string. Default: unset (no {@code Authorization} header).
     */
    public static final String API_KEY = "memory.stage2.api-key";

    /** HTTP read timeout of one summary call. Type: long, milliseconds, ≥ 1. Default: {@value Defaults#READ_TIMEOUT_MS}. */
    public static final String READ_TIMEOUT_MS = "memory.stage2.read-timeout-ms";

    /**
     * Most tokens a stored summary keeps: beyond it the oldest lines are left out (decision lines last). The context
     * operation may show fewer, within the summary's share of the history budget. Type: int, tokens, 100–100,000.
     * Default: {@value Defaults#MAX_SUMMARY_TOKENS}.
     */
    public static final String MAX_SUMMARY_TOKENS = "memory.stage2.max-summary-tokens";

    /** Default values of the keys above. */
    public static final class Defaults {
        public static final boolean ENABLED = true;
        public static final String MODEL = "gpt-4o-mini";
        public static final long READ_TIMEOUT_MS = 20_000;
        public static final int MAX_SUMMARY_TOKENS = 2_000;

        private Defaults() {}
    }

    private Stage2Settings() {}
}
