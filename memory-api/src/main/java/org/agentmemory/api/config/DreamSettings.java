package org.agentmemory.api.config;

/**
 * MicroProfile Config keys of the dream cycle (issue 33; spec §12.1 gives the reference's defaults). Every key can be
 * set as a system property, an environment variable ({@code MEMORY_DREAM_INTERVAL_SECONDS}) or in
 * {@code microprofile-config.properties}; a value out of range stops the deployment with a message naming the key.
 */
public final class DreamSettings {

    /** Interval between two cycles of an agent whose schedule names none. Type: long, seconds, ≥ 1. */
    public static final String INTERVAL_SECONDS = "memory.dream.interval-seconds";

    /** Most seconds of random delay before a cycle that was due while the server was down. Type: int, ≥ 0. */
    public static final String STARTUP_JITTER_SECONDS = "memory.dream.startup-jitter-seconds";

    /** After an aborted cycle the next is due after interval / this. Type: int, ≥ 1. */
    public static final String BACKOFF_DIVISOR = "memory.dream.backoff-divisor";

    /** An episode is eligible with at least this importance (or with a lesson). Type: int, 1 to 10. */
    public static final String IMPORTANCE_THRESHOLD = "memory.dream.importance-threshold";

    /** Cosine an episode needs to a group's first member to join it. Type: double, 0 to 1. */
    public static final String SIMILARITY_THRESHOLD = "memory.dream.similarity-threshold";

    /** Most groups distilled per cycle; the rest wait for the next. Type: int, ≥ 1. */
    public static final String MAX_GROUPS_PER_CYCLE = "memory.dream.max-groups-per-cycle";

    /** Most episodes a cycle reads. Type: int, 1 to 100,000. */
    public static final String COLLECT_LIMIT = "memory.dream.collect-limit";

    /** Distinct cycles that must reinforce a page before it is copied to the organisation brain. Type: int, ≥ 1. */
    public static final String PROMOTION_CYCLES = "memory.dream.promotion-cycles";

    /** How often each server compares its timers with the schedules in the database. Type: int, seconds, ≥ 1. */
    public static final String SYNC_SECONDS = "memory.dream.sync-seconds";

    /**
     * API root of the OpenAI-compatible model that distills groups (e.g. {@code https://api.openai.com/v1}); unset =
     * the heuristic distiller only. Type: URL.
     */
    public static final String MODEL_URL = "memory.dream.model-url";

    /** Chat model named in distillation requests. Type: string. */
    public static final String MODEL = "memory.dream.model";

    /**
     * Bearer key of the distillation endpoint; best from the environment ({@code MEMORY_DREAM_API_KEY}). Type: string.
     * Default: unset (no header).
     */
    public static final String API_KEY = "memory.dream.api-key";

    /** HTTP read timeout of a distillation call. Type: long, milliseconds, ≥ 1. */
    public static final String READ_TIMEOUT_MS = "memory.dream.read-timeout-ms";

    /**
     * Fault injection for tests of crash safety, never for production: {@code fail-mark} makes every mark of a cycle
     * fail after its archive (as a crash between the two would), {@code pause-after-archive:<ms>} holds the cycle
     * after each archive. Read at every cycle. Type: string. Default: unset.
     */
    public static final String FAULT = "memory.dream.fault";

    /** Default values of the keys above (spec §12.1 where it names one). */
    public static final class Defaults {
        public static final long INTERVAL_SECONDS = 86_400;
        public static final int STARTUP_JITTER_SECONDS = 60;
        public static final int BACKOFF_DIVISOR = 4;
        public static final int IMPORTANCE_THRESHOLD = 5;
        public static final double SIMILARITY_THRESHOLD = 0.75;
        public static final int MAX_GROUPS_PER_CYCLE = 20;
        public static final int COLLECT_LIMIT = 5_000;
        public static final int PROMOTION_CYCLES = 3;
        public static final int SYNC_SECONDS = 30;
        public static final String MODEL = "gpt-4o-mini";
        public static final long READ_TIMEOUT_MS = 20_000;

        private Defaults() {}
    }

    private DreamSettings() {}
}
