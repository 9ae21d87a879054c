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

    private MemorySettings() {}

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
     * by a timer every 10 minutes ({@link HousekeepingSettings#OMISSION_PURGE_SECONDS}), on one server of a cluster. Type: long, seconds; 0 = never expires. Default: {@value Defaults#OMISSION_TTL_SECONDS}.
     */
    public static final String OMISSION_TTL_SECONDS = "memory.omission.ttl-seconds";

    /**
     * Idle time after which a conversation is deleted with everything stored under it (issue 34 item 5). The clock
     * is the conversation's last write ({@code updated_at}: every turn, metadata change or clearing refreshes it); a
     * timer deletes conversations idle for longer every 10 minutes
     * ({@link HousekeepingSettings#IDLE_CONVERSATIONS_SECONDS}; one server of a cluster per period), in batches of
     * 100, skipping rows a writer holds. Type: long, seconds; 0 = never. Default: {@value Defaults#CONVERSATION_IDLE_TTL_SECONDS}.
     */
    public static final String CONVERSATION_IDLE_TTL_SECONDS = "memory.conversation.idle-ttl-seconds";

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
     * Lines per import transaction; a batch also closes once its lines hold 4 Mi characters of JSONL. Each batch
     * locks, updates and looks up turn ids once per conversation it holds lines of, so larger batches cost less per
     * line when the lines of a conversation are spread through the file. Type: int, 1–1000. Default:
     * {@value Defaults#IMPORT_BATCH_LINES}.
     */
    public static final String IMPORT_BATCH_LINES = "memory.import.batch-lines";

    /**
     * Batches of one import stored at once. Lines are split by user (and agent), so a user's conversations are
     * created in the order they first appear, their turns keep their line order, and parallel batches never wait
     * for each other's locks. Type: int, 1–8.
     * Default: {@value Defaults#IMPORT_PARALLELISM}.
     */
    public static final String IMPORT_PARALLELISM = "memory.import.parallelism";

    /**
     * Seconds sent in {@code Retry-After} when a fault-tolerance policy (timeout, bulkhead) gives up and the
     * service answers 503. Type: int, seconds, ≥ 1. Default: {@value Defaults#RETRY_AFTER_SECONDS}.
     */
    public static final String RETRY_AFTER_SECONDS = "memory.rest.retry-after-seconds";

    /**
     * Bounded attempts of {@code mergeMetadata} whose compare-and-set on the version finds another version; after
     * the last one the caller gets a version conflict (409). Each attempt reads the conversation under its row lock,
     * so concurrent merges and turn writes wait for each other instead of using up attempts. Type: int, ≥ 1.
     * Default: {@value Defaults#METADATA_MERGE_ATTEMPTS}.
     */
    public static final String METADATA_MERGE_ATTEMPTS = "memory.metadata.merge-attempts";

    /**
     * Embedding model of episodic memory (episodes, lessons and everything recalled by
     * {@code recallSimilar}, spec §10.5), loaded in-process on first use, never downloaded. Type: string, one of
     * {@code all-minilm-l6-v2-q} (sentence-transformers all-MiniLM-L6-v2 quantized to int8; mean pooling, a 256
     * word-piece window), {@code all-minilm-l6-v2} (the same model in float32) or {@code bge-small-en-v1.5-q}
     * (BAAI bge-small-en-v1.5, int8; CLS pooling, a 512 word-piece window, the model's instruction prefix on
     * queries); all give 384 dimensions. The default is the model of the reference (spec §10.5) in int8: it recalls
     * as the float32 model does at half the CPU (docs/decisions/0005-embedding-models.md). Changing it
     * makes the background embedder re-embed episodes; until an episode is re-embedded, vector recall leaves it
     * out (its vector cannot be compared with the new model's) and full-text recall still finds it.
     * Default: {@value Defaults#EMBEDDING_MODEL}.
     */
    public static final String EMBEDDING_MODEL = "memory.embedding.model";

    /**
     * Embedding model of conversation recall (stored user messages and assistant responses). Same values as
     * {@value #EMBEDDING_MODEL}. The default recalls best on LoCoMo for about twice MiniLM's CPU per message
     * (docs/decisions/0005-embedding-models.md). Changing it makes the
     * background embedder re-embed the messages. Default: {@value Defaults#MESSAGE_EMBEDDING_MODEL}.
     */
    public static final String MESSAGE_EMBEDDING_MODEL = "memory.embedding.message-model";

    /**
     * ONNX Runtime intra-op threads per embedding inference: how many cores one embedding call may keep busy.
     * {@code 1} (the default) gives the most texts per CPU second and leaves the other cores to request threads;
     * {@code 0} means ONNX Runtime's default (one per physical core), which lowers the latency of a single long
     * text on an idle machine. Vectors are identical whatever the value. Type: integer 0–64. Default:
     * {@value Defaults#EMBEDDING_THREADS}.
     */
    public static final String EMBEDDING_THREADS = "memory.embedding.threads";

    /**
     * The share of one core the background embedder of conversation messages may keep while clients are being
     * served (business calls in flight, or ended less than 250 ms ago): it then embeds small batches and pauses
     * after each, so writes are not slowed by vectors nobody is waiting for yet; when the service is quiet it runs
     * at full speed and catches up, on every core (cores / {@code memory.embedding.threads} calls at once).
     * {@code 1} never pauses. With one ONNX Runtime thread per call (the default
     * {@code memory.embedding.threads}) the embedder's threads also run at the lowest CPU priority (nice 19, on
     * Linux), so this share is at most what it takes: requests get a busy core at once, and the embedder takes
     * only what they leave idle. While the requests saturate the machine (on average as many in flight as there
     * are cores, since the embedder's last batch) it keeps a fifth of this share instead
     * (docs/decisions/0006-background-embedding.md). Type: double in (0, 1]. Default:
     * {@value Defaults#EMBEDDING_BUSY_SHARE}.
     */
    public static final String EMBEDDING_BUSY_SHARE = "memory.embedding.busy-share";

    /**
     * Days until a new episode expires when the caller gives no TTL (spec §10.3 {@code default_ttl_days}).
     * Type: int, days, ≥ 0; 0 means episodes never expire. Default: {@value Defaults#EPISODIC_DEFAULT_TTL_DAYS}.
     */
    public static final String EPISODIC_DEFAULT_TTL_DAYS = "memory.episodic.default-ttl-days";

    /**
     * How hybrid recall fuses its vector and full-text legs. Type: string, {@code rrf} (reciprocal rank
     * fusion, Σ 1/(k + rank)) or {@code weighted} (min-max normalised scores, weighted by
     * {@value #RECALL_VECTOR_WEIGHT} and {@value #RECALL_FULL_TEXT_WEIGHT}). Default: {@value Defaults#RECALL_FUSION}.
     */
    public static final String RECALL_FUSION = "memory.recall.fusion";

    /**
     * Rank constant k of reciprocal rank fusion. Smaller values trust the top of each leg more. Tuned on LoCoMo
     * conversations 0–4 (hybrid conversation recall, R@10 cat 1–4: k 60 → 0.672, k 10 → 0.708 with the default
     * neighbour weight; k 5–12 all within 0.005). Type: int, ≥ 1. Default: {@value Defaults#RECALL_RRF_K}.
     */
    public static final String RECALL_RRF_K = "memory.recall.rrf-k";

    /**
     * Weight of the vector leg in weighted fusion (spec §10.6 semantic weight). Type: double, ≥ 0.
     * Default: {@value Defaults#RECALL_VECTOR_WEIGHT}.
     */
    public static final String RECALL_VECTOR_WEIGHT = "memory.recall.vector-weight";

    /**
     * Weight of the full-text leg in weighted fusion (spec §10.6 BM25/text weight). Type: double, ≥ 0.
     * Default: {@value Defaults#RECALL_FULL_TEXT_WEIGHT}.
     */
    public static final String RECALL_FULL_TEXT_WEIGHT = "memory.recall.full-text-weight";

    /**
     * Candidates each recall leg (vector, full-text) returns before fusion in hybrid recall of episodes and of
     * conversation messages; at least the requested top-k are always fetched. Type: int, 1–1000.
     * Default: {@value Defaults#RECALL_CANDIDATES}.
     */
    public static final String RECALL_CANDIDATES = "memory.recall.candidates";

    /**
     * Neighbour context of hybrid conversation recall: after fusion each message gains this share of the fused
     * score of its best-scoring adjacent message (the message before or after it in the same conversation), so a
     * question answered across a message and its reply finds both. {@code 0} turns it off. Episodic recall does not
     * use it. Tuned on LoCoMo conversations 0–4 (R@10 cat 1–4 with k 10: weight 0 → 0.662, 0.3 → 0.707,
     * 0.4 → 0.708, 0.5 → 0.714). Type: double, 0–1. Default: {@value Defaults#RECALL_NEIGHBOR_WEIGHT}.
     */
    public static final String RECALL_NEIGHBOR_WEIGHT = "memory.recall.neighbor-weight";

    /**
     * Hour of the day (UTC) at which every server merges its search indexes into one segment (on an
     * OpenSearch/Elasticsearch cluster, whose indexes the servers share, one server does), as
     * {@code POST /admin/reindex/merge} does: a steady stream of writes leaves many small segments and k-NN
     * search walks one graph per segment (docs/decisions/0007-index-merges.md). A merge rewrites the index in the
     * background; searches and writes go on. {@code -1} turns the nightly merge off. Type: int, −1 to 23. Default:
     * {@value Defaults#SEARCH_MERGE_HOUR}.
     */
    public static final String SEARCH_MERGE_HOUR = "memory.search.merge-hour";

    /**
     * Documents written to a server's search indexes (episodes and conversation messages inserted, updated or
     * deleted) after which that server merges its indexes into one segment as soon as no document has been written
     * for {@value #SEARCH_QUIET_MERGE_SECONDS} seconds: a bulk ingest is followed by a merge within minutes instead
     * of at the nightly hour. A merge rewrites the whole index on one core; searches and writes go on meanwhile. It
     * does not start while a reindex or another merge runs.
     * {@code 0} turns it off. Type: long, ≥ 0. Default: {@value Defaults#SEARCH_QUIET_MERGE_WRITES}.
     */
    public static final String SEARCH_QUIET_MERGE_WRITES = "memory.search.quiet-merge-writes";

    /**
     * Growth of the conversation tables, as a fraction of their size at the last refresh, after which a server
     * refreshes PostgreSQL's planner statistics of them ({@code ANALYZE} of {@code conversation}, {@code turn},
     * {@code tool_invocation} and {@code turn_message}, in the background, never in a write's transaction): counted
     * in turns this server wrote, at least {@value Defaults#DB_ANALYZE_MIN_TURNS} turns; where autovacuum is off it runs
     * {@code VACUUM (ANALYZE, TRUNCATE false)} instead (the conversation rows every write updates otherwise keep their
     * dead versions). Its {@code ANALYZE} samples 3,000 rows per table (statistics target 10, for its own session).
     * Without it, statistics are those of whenever autovacuum last ran (never where autovacuum is off, up to a minute
     * late during a bulk import), and PostgreSQL keeps plans made for near-empty tables: an import's turn-id lookup
     * then scans the whole turn table (docs/decisions/0008-planner-statistics.md). {@code 0} turns it off (H2 keeps
     * its statistics itself; nothing is done there). Type: double, ≥ 0. Default: {@value Defaults#DB_ANALYZE_GROWTH}.
     */
    public static final String DB_ANALYZE_GROWTH = "memory.db.analyze-growth";

    /**
     * Seconds without a document written to the search indexes before the merge of
     * {@value #SEARCH_QUIET_MERGE_WRITES} starts; checked every 15 seconds
     * ({@link HousekeepingSettings#SEARCH_QUIET_CHECK_SECONDS}). Type: int, seconds, ≥ 1. Default:
     * {@value Defaults#SEARCH_QUIET_MERGE_SECONDS}.
     */
    public static final String SEARCH_QUIET_MERGE_SECONDS = "memory.search.quiet-merge-seconds";

    /**
     * Hybrid recall on the search engine (issue 36 item 4). {@code auto}: on an OpenSearch cluster whose every node
     * has the neural-search plugin, hybrid conversation recall runs as one {@code hybrid} query through a search
     * pipeline the service creates at start-up, fusing as {@value #RECALL_FUSION} says ({@code rrf}: the
     * {@code score-ranker-processor} with rank constant {@value #RECALL_RRF_K}; {@code weighted}: the
     * {@code normalization-processor}, min-max normalisation and an arithmetic mean weighted by
     * {@value #RECALL_FULL_TEXT_WEIGHT} and {@value #RECALL_VECTOR_WEIGHT}, scaled to sum 1). Without the plugin, on
     * the embedded Lucene backend, or with {@code off}, the two legs are fused in the service (client-side) as
     * before. The readiness check {@code memory-search} shows which ({@code hybrid}). Type: string, {@code auto} or
     * {@code off}. Default: {@value Defaults#SEARCH_ENGINE_HYBRID}.
     */
    public static final String SEARCH_ENGINE_HYBRID = "memory.search.engine-hybrid";

    /**
     * Root URL of an OpenAI-compatible chat-completions API used for reflection (spec §10.4), e.g.
     * {@code https://api.openai.com/v1} ({@code /chat/completions} is appended). Unset or blank: reflection uses
     * the heuristic table only and no model is ever called. Type: URL. Default: unset.
     */
    public static final String REFLECTION_URL = "memory.reflection.url";

    /** Chat model named in reflection requests. Type: string. Default: {@value Defaults#REFLECTION_MODEL}. */
    public static final String REFLECTION_MODEL = "memory.reflection.model";

    /**
     * API key sent as {@code Authorization: Bearer <key>}; set it in the server's environment
     * ({@code MEMORY_REFLECTION_API_KEY}), never in a file. Type: string. Default: unset (no header).
     */
    public static final String REFLECTION_API_KEY = "memory.reflection.api-key";

    /**
     * HTTP read timeout of one reflection call (the Fault Tolerance timeout of {@code ReflectionService/reflect}
     * bounds it too). Type: long, milliseconds, ≥ 1. Default: {@value Defaults#REFLECTION_READ_TIMEOUT_MS}.
     */
    public static final String REFLECTION_READ_TIMEOUT_MS = "memory.reflection.read-timeout-ms";

    /**
     * When the vectors of conversation messages (conversation recall) are computed:
     * {@code background} — the write stores the message for full-text search at once and a timer embeds new
     * messages in batches (the next batch at once while a backlog remains, otherwise a second later), so writes
     * never wait for the model (vector and hybrid recall see a message within about a second); {@code inline} — the write embeds its messages before it takes the
     * conversation's lock and waits for it. Type: string. Default: {@value Defaults#RECALL_EMBEDDING}.
     */
    public static final String RECALL_EMBEDDING = "memory.recall.embedding";

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

    /**
     * How REST requests are authenticated: {@code jwt} (signed bearer tokens; the tenant and roles come from the
     * token) or {@code none} (every request is tenant {@code default} with every role: local experiments only; a
     * warning is logged at every start and readiness shows it). Type: string. Default: {@value Defaults#SECURITY_MODE}.
     */
    public static final String SECURITY_MODE = "memory.security.mode";

    /**
     * The PEM file of the public key (RSA or EC P-256) that verifies tokens (RS256, ES256). Type: path. Default: none;
     * one of this, {@link #SECURITY_JWT_JWKS_URL} or {@link #SECURITY_DEVELOPMENT_KEYS} is required in {@code jwt} mode.
     */
    public static final String SECURITY_JWT_PUBLIC_KEY_LOCATION = "memory.security.jwt.public-key-location";

    /** A JWKS URL the verification keys are fetched from (by the token's {@code kid}). Type: URL. Default: none. */
    public static final String SECURITY_JWT_JWKS_URL = "memory.security.jwt.jwks-url";

    /** The issuer ({@code iss}) a token must name. Type: string. Default: {@value Defaults#SECURITY_JWT_ISSUER}. */
    public static final String SECURITY_JWT_ISSUER = "memory.security.jwt.issuer";

    /** The audience ({@code aud}) a token must include. Type: string. Default: {@value Defaults#SECURITY_JWT_AUDIENCE}. */
    public static final String SECURITY_JWT_AUDIENCE = "memory.security.jwt.audience";

    /**
     * Tolerated clock difference when checking {@code exp}, {@code nbf} and {@code iat}. Type: int, seconds, 0 to
     * 3600. Default: {@value Defaults#SECURITY_JWT_CLOCK_SKEW_SECONDS}.
     */
    public static final String SECURITY_JWT_CLOCK_SKEW_SECONDS = "memory.security.jwt.clock-skew-seconds";

    /**
     * The claim that names the caller's tenant (1 to 64 characters); a token without it is refused. Type: string.
     * Default: {@value Defaults#SECURITY_TENANT_CLAIM}.
     */
    public static final String SECURITY_TENANT_CLAIM = "memory.security.tenant-claim";

    /**
     * The claim that scopes a token to one end user: a token carrying it reads and writes only that user's
     * conversations, episodes and searches (a request naming another user is refused with 403; one naming no user is
     * narrowed to it); operations that cannot be narrowed to a user (chatbot statistics and user lists, answers,
     * administration, marking episodes consolidated) are refused. Set it to {@code sub} when end users get their
     * tokens from the identity provider directly. A token without the claim is not narrowed. Type: string. Default:
     * {@value Defaults#SECURITY_USER_CLAIM}.
     */
    public static final String SECURITY_USER_CLAIM = "memory.security.user-claim";

    /**
     * The claim that scopes a token to one agent (chatbot): a token carrying it reads and writes only that agent's
     * conversations and episodes, as {@link #SECURITY_USER_CLAIM} does for a user. A token without the claim is not
     * narrowed. Type: string. Default: {@value Defaults#SECURITY_AGENT_CLAIM}.
     */
    public static final String SECURITY_AGENT_CLAIM = "memory.security.agent-claim";

    /**
     * The tenant of each authenticated EJB caller (issue 32 item 2): comma-separated {@code principal=tenant} pairs,
     * e.g. {@code agent-backend-acme=acme,agent-backend-globex=globex}. A remote client, or a caller in another
     * deployment running as an authenticated user, acts in its principal's tenant: every tenant it passes (a
     * {@code tenantId} parameter, the tenant of a key or namespace) is replaced by it. An authenticated principal
     * without an entry is refused ({@code EJBAccessException}); the JBOSS-LOCAL-USER principal of same-host clients
     * is {@code $local}. Type: list. Default: empty (every authenticated EJB caller is refused).
     */
    public static final String SECURITY_EJB_TENANTS = "memory.security.ejb.tenants";

    /**
     * How long rows of the audit trail are kept (issue 32 item 5); older rows are deleted daily. Type: int, days, 0
     * (keep forever) to 36,500. Default: {@value Defaults#AUDIT_RETENTION_DAYS}.
     */
    public static final String AUDIT_RETENTION_DAYS = "memory.audit.retention-days";

    /**
     * Development keys: when no key is configured, the server creates an RSA key pair in
     * {@link #SECURITY_DEVELOPMENT_KEYS_DIRECTORY} and writes a 30-day token for tenant {@code default} with every
     * role to {@code dev-token.jwt} there at every start. Set by the README's run profile. Type: boolean. Default:
     * false.
     */
    public static final String SECURITY_DEVELOPMENT_KEYS = "memory.security.development-keys";

    /**
     * Where development keys live. Type: path. Default: {@code <server data directory>/agent-memory/security}.
     */
    public static final String SECURITY_DEVELOPMENT_KEYS_DIRECTORY = "memory.security.development-keys.directory";

    /**
     * Where PII detection threads are kept (issue 34 item 2): {@code memory} (in-process, bounded, lost at restart,
     * not shared between servers) or {@code durable} (the database, shared by every server; hashed and encrypted when
     * {@link #PII_PEPPER} and {@link #PII_KEY} are set). Type: string. Default: {@value Defaults#PII_STORE}
     * (decision 0014: nothing personal reaches the disk unless an operator chooses it).
     */
    public static final String PII_STORE = "memory.pii.store";

    /**
     * Most threads the in-process PII store keeps; the least recently used is evicted beyond. Type: int, ≥ 0;
     * 0 lifts the bound. Default: {@value Defaults#PII_MAX_THREADS}.
     */
    public static final String PII_MAX_THREADS = "memory.pii.max-threads";

    /**
     * Idle time after which an in-process PII thread expires (on its next access). Type: long, seconds, ≥ 0; 0 lifts
     * the bound. Default: {@value Defaults#PII_IDLE_TTL_SECONDS} (one day).
     */
    public static final String PII_IDLE_TTL_SECONDS = "memory.pii.idle-ttl-seconds";

    /**
     * Pepper of the HMAC-SHA256 that hashes thread and message keys in the durable PII store: at least 16 characters.
     * Secret: set it from the environment ({@code MEMORY_PII_PEPPER}), never in the repository. Required with
     * {@link #PII_KEY}: exactly one of the two fails the deployment. Default: none.
     */
    public static final String PII_PEPPER = "memory.pii.pepper";

    /**
     * AES key (Base64 of 16, 24 or 32 bytes) that encrypts detections (AES-GCM) in the durable PII store. Secret:
     * {@code MEMORY_PII_KEY}. Required with {@link #PII_PEPPER}. Default: none.
     */
    public static final String PII_KEY = "memory.pii.key";

    /**
     * The previous AES key during a rotation: rows under it are still decrypted, and {@code POST /pii/reencrypt}
     * rewrites them under {@link #PII_KEY}. Type: Base64 as {@link #PII_KEY}. Default: none.
     */
    public static final String PII_OLD_KEY = "memory.pii.old-key";

    /** Default values of the keys above. */
    public static final class Defaults {
        public static final String PII_STORE = "memory";
        public static final int PII_MAX_THREADS = 10_000;
        public static final long PII_IDLE_TTL_SECONDS = 86_400;
        public static final String TOKENIZER = "o200k_base";
        public static final String SECURITY_MODE = "jwt";
        public static final String SECURITY_JWT_ISSUER = "agent-memory";
        public static final String SECURITY_JWT_AUDIENCE = "agent-memory";
        public static final int SECURITY_JWT_CLOCK_SKEW_SECONDS = 30;
        public static final String SECURITY_TENANT_CLAIM = "tenant";
        public static final String SECURITY_USER_CLAIM = "memory_user";
        public static final int AUDIT_RETENTION_DAYS = 365;
        public static final String SECURITY_AGENT_CLAIM = "memory_agent";
        public static final boolean NORMALIZATION_ENABLED = true;
        public static final int OFFLOAD_THRESHOLD_TOKENS = 2000;
        public static final long OMISSION_TTL_SECONDS = 0;
        public static final long CONVERSATION_IDLE_TTL_SECONDS = 0;
        public static final long REST_MAX_BODY_BYTES = 8L * 1024 * 1024;
        public static final long IMPORT_MAX_BODY_BYTES = 1024L * 1024 * 1024;
        public static final int IMPORT_MAX_LINE_BYTES = 8 * 1024 * 1024;
        public static final int IMPORT_BATCH_LINES = 1000;
        /** Default of {@link MemorySettings#IMPORT_PARALLELISM}. */
        public static final int IMPORT_PARALLELISM = 2;

        public static final int RETRY_AFTER_SECONDS = 1;
        public static final int METADATA_MERGE_ATTEMPTS = 10;
        public static final String EMBEDDING_MODEL = "all-minilm-l6-v2-q";
        public static final String MESSAGE_EMBEDDING_MODEL = "bge-small-en-v1.5-q";
        public static final int EMBEDDING_THREADS = 1;
        public static final int EPISODIC_DEFAULT_TTL_DAYS = 90;
        public static final String RECALL_FUSION = "rrf";
        /** Default of {@link MemorySettings#SEARCH_ENGINE_HYBRID}. */
        public static final String SEARCH_ENGINE_HYBRID = "auto";

        public static final int RECALL_RRF_K = 10;
        public static final double RECALL_VECTOR_WEIGHT = 0.6;
        public static final double RECALL_FULL_TEXT_WEIGHT = 0.4;
        public static final int RECALL_CANDIDATES = 50;
        public static final double RECALL_NEIGHBOR_WEIGHT = 0.4;
        public static final double EMBEDDING_BUSY_SHARE = 0.25;
        public static final int SEARCH_MERGE_HOUR = 3;
        public static final long SEARCH_QUIET_MERGE_WRITES = 10_000;
        /** Default of {@link MemorySettings#DB_ANALYZE_GROWTH}. */
        public static final double DB_ANALYZE_GROWTH = 0.2;
        /** The fewest turns written between two statistics refreshes ({@link MemorySettings#DB_ANALYZE_GROWTH}). */
        public static final long DB_ANALYZE_MIN_TURNS = 1_000;

        public static final int SEARCH_QUIET_MERGE_SECONDS = 60;
        public static final String REFLECTION_MODEL = "gpt-4o-mini";
        public static final long REFLECTION_READ_TIMEOUT_MS = 20_000;
        public static final boolean COMPACTION_ENABLED = true;
        public static final String RECALL_EMBEDDING = "background";
        public static final String COMPACTION_MODEL_WINDOWS = "";
        public static final String COMPACTION_TOOL_POLICIES = "";

        private Defaults() {}
    }
}
