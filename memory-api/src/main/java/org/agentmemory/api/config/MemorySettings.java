package org.agentmemory.api.config;

/**
 * Every configuration key of the memory service, documented once: meaning, type, unit and default.
 *
 * <p>Keys are MicroProfile Config properties: set them as system properties (WildFly CLI
 * {@code /system-property=memory.tokenizer:add(value=cl100k_base)}), environment variables
 * ({@code MEMORY_TOKENIZER=cl100k_base}) or in a config source of your own. The README's configuration table
 * and {@code config/microprofile-config.md} list the same keys; the EJB module's {@code Settings} and the web module's {@code RestSettings} read and validate them
 * at start-up, so a bad value fails the deployment with a message naming the key.
 */
public final class MemorySettings {

    private MemorySettings() {
    }

    /**
     * Tokenizer used to count every stored turn (spec §3).
     * Type: string, one of {@code o200k_base}, {@code cl100k_base}, {@code heuristic}.
     * Default: {@value Defaults#TOKENIZER}.
     */
    public static final String TOKENIZER = "memory.tokenizer";

    /**
     * Whether Stage 0 normalization (spec §2) runs on every write. Token counting runs either way.
     * Type: boolean. Default: {@value Defaults#NORMALIZATION_ENABLED}.
     */
    public static final String NORMALIZATION_ENABLED = "memory.normalization.enabled";

    /**
     * Write-time offload threshold (spec §6): a tool output of strictly more tokens than this is moved to the
     * omission store and replaced by a preview. Type: int, tokens, ≥ 1. Default: {@value Defaults#OFFLOAD_THRESHOLD_TOKENS}.
     */
    public static final String OFFLOAD_THRESHOLD_TOKENS = "memory.offload.threshold-tokens";

    /**
     * Time to live of omitted content (spec §7.2 {@code ttl}); expired content reads as unknown and is purged
     * by a timer every 10 minutes. Type: long, seconds; 0 = never expires. Default: {@value Defaults#OMISSION_TTL_SECONDS}.
     */
    public static final String OMISSION_TTL_SECONDS = "memory.omission.ttl-seconds";

    /**
     * Largest accepted REST request body, except {@code POST /api/v1/import}. Larger bodies get 413.
     * Type: long, bytes, ≥ 1024. Default: {@value Defaults#REST_MAX_BODY_BYTES} (8 MiB).
     */
    public static final String REST_MAX_BODY_BYTES = "memory.rest.max-body-bytes";

    /**
     * Largest accepted JSONL import body. Type: long, bytes. Default: {@value Defaults#IMPORT_MAX_BODY_BYTES} (1 GiB).
     */
    public static final String IMPORT_MAX_BODY_BYTES = "memory.import.max-body-bytes";

    /**
     * Largest accepted line of a JSONL import; a longer line is reported as an error and skipped.
     * Type: int, bytes. Default: {@value Defaults#IMPORT_MAX_LINE_BYTES} (8 MiB).
     */
    public static final String IMPORT_MAX_LINE_BYTES = "memory.import.max-line-bytes";

    /**
     * Lines per import transaction. Type: int, 1–1000. Default: {@value Defaults#IMPORT_BATCH_LINES}.
     */
    public static final String IMPORT_BATCH_LINES = "memory.import.batch-lines";

    /**
     * Seconds sent in {@code Retry-After} when a fault-tolerance policy (timeout, bulkhead) gives up and the
     * service answers 503. Type: int, seconds, ≥ 1. Default: {@value Defaults#RETRY_AFTER_SECONDS}.
     */
    public static final String RETRY_AFTER_SECONDS = "memory.rest.retry-after-seconds";

    /**
     * Bounded attempts of {@code mergeMetadata} when concurrent writers keep changing the conversation;
     * after the last one the caller gets a version conflict (409). Type: int, ≥ 1.
     * Default: {@value Defaults#METADATA_MERGE_ATTEMPTS}.
     */
    public static final String METADATA_MERGE_ATTEMPTS = "memory.metadata.merge-attempts";

    /**
     * Kill switch of read-time compaction (spec §5.3, the reference's {@code PARROT_COMPACTION_DISABLED}). When
     * false, the context operation renders the last {@code maxTurns} turns as they are (outcome
     * {@code UNCOMPACTED}, flagged when over budget, no commit). Type: boolean.
     * Default: {@value Defaults#COMPACTION_ENABLED}.
     */
    public static final String COMPACTION_ENABLED = "memory.compaction.enabled";

    /**
     * Context windows of models, merged over the built-in table of spec §5.2 (same prefix: this wins). A model
     * name takes the window of its longest matching prefix (case-insensitive); unknown names get 32000.
     * Type: comma-separated {@code prefix=window} entries, window in tokens ≥ 1, e.g.
     * {@code my-llama=65536,gpt-4o-mini=128000}. Default: empty (the built-in table only).
     */
    public static final String COMPACTION_MODEL_WINDOWS = "memory.compaction.model-windows";

    /**
     * Prune policy of tools (spec §8.4), consulted after a call's own overrides and before the built-in aliases.
     * Type: comma-separated {@code toolName=policy} entries, policy one of {@code default}, {@code file_write},
     * {@code file_read}, {@code shell}, {@code sub_agent}, {@code query}; tool names are exact, e.g.
     * {@code run_sql=query,kubectl=shell}. Default: empty.
     */
    public static final String COMPACTION_TOOL_POLICIES = "memory.compaction.tool-policies";

    /** Default values of the keys above. */
    public static final class Defaults {
        public static final String TOKENIZER = "o200k_base";
        public static final boolean NORMALIZATION_ENABLED = true;
        public static final int OFFLOAD_THRESHOLD_TOKENS = 2000;
        public static final long OMISSION_TTL_SECONDS = 0;
        public static final long REST_MAX_BODY_BYTES = 8L * 1024 * 1024;
        public static final long IMPORT_MAX_BODY_BYTES = 1024L * 1024 * 1024;
        public static final int IMPORT_MAX_LINE_BYTES = 8 * 1024 * 1024;
        public static final int IMPORT_BATCH_LINES = 500;
        public static final int RETRY_AFTER_SECONDS = 1;
        public static final int METADATA_MERGE_ATTEMPTS = 10;
        public static final boolean COMPACTION_ENABLED = true;
        public static final String COMPACTION_MODEL_WINDOWS = "";
        public static final String COMPACTION_TOOL_POLICIES = "";

        private Defaults() {
        }
    }
}
