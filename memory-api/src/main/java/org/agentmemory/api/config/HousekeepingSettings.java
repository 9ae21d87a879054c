package org.agentmemory.api.config;

/**
 * MicroProfile Config keys of the housekeeping timers (issue 36 item 2, decision 0018): how often each runs. The tasks
 * that must run once per cluster take a lease row in the database ({@code cluster_lease}) before they run, so on
 * several servers sharing one database each runs once per period between them. Every key is a number of seconds,
 * 1 to 31,536,000; a value out of range stops the deployment with a message naming the key. Tests set them to a few
 * seconds; the defaults are the periods the timers always had.
 */
public final class HousekeepingSettings {

    /** Task name (in {@code cluster_lease} and {@code GET /admin/housekeeping}) of the omission TTL purge. */
    public static final String OMISSION_PURGE = "omission-purge";

    /** Task name of the deletion of expired episodes. */
    public static final String EPISODE_EXPIRY = "episode-expiry";

    /** Task name of the idle-conversation sweep ({@code memory.conversation.idle-ttl-seconds}). */
    public static final String IDLE_CONVERSATIONS = "idle-conversations";

    /** Task name of the deletion of audit rows older than {@code memory.audit.retention-days}. */
    public static final String AUDIT_RETENTION = "audit-retention";

    /** Task name of the refresh of PostgreSQL's planner statistics ({@code memory.db.analyze-growth}). */
    public static final String DB_STATISTICS = "db-statistics";

    /** Task name of the nightly merge of the search indexes (leased only on an OpenSearch/Elasticsearch cluster). */
    public static final String SEARCH_MERGE = "search-merge";

    /** Task name of the merge after a bulk write (leased only on an OpenSearch/Elasticsearch cluster). */
    public static final String SEARCH_QUIET_MERGE = "search-quiet-merge";

    /** Period of the omission TTL purge ({@code memory.omission.ttl-seconds}). Type: long, seconds. */
    public static final String OMISSION_PURGE_SECONDS = "memory.housekeeping.omission-purge-seconds";

    /** Period of the deletion of expired episodes. Type: long, seconds. */
    public static final String EPISODE_EXPIRY_SECONDS = "memory.housekeeping.episode-expiry-seconds";

    /** Period of the idle-conversation sweep. Type: long, seconds. */
    public static final String IDLE_CONVERSATIONS_SECONDS = "memory.housekeeping.idle-conversations-seconds";

    /**
     * Period of the audit retention; with the default (a day) it runs at 03:17 UTC, with a shorter period at the
     * multiples of the period from midnight UTC plus 3 h 17 min. Type: long, seconds.
     */
    public static final String AUDIT_RETENTION_SECONDS = "memory.housekeeping.audit-retention-seconds";

    /**
     * Period of the lease of the planner-statistics refresh: a server whose writes call for a refresh less than half
     * of it after another server started one takes that server's refresh as its own. The refresh itself follows the
     * writes ({@code memory.db.analyze-growth}), not a timer. Type: long, seconds.
     */
    public static final String DB_STATISTICS_SECONDS = "memory.housekeeping.db-statistics-seconds";

    /**
     * Period of the search-index merge; with the default (a day) it runs at {@code memory.search.merge-hour} UTC, with
     * a shorter period at the multiples of the period from that hour. Type: long, seconds.
     */
    public static final String SEARCH_MERGE_SECONDS = "memory.housekeeping.search-merge-seconds";

    /**
     * How often each server checks whether a merge after a bulk write is due ({@code memory.search.quiet-merge-writes}).
     * Type: long, seconds.
     */
    public static final String SEARCH_QUIET_CHECK_SECONDS = "memory.housekeeping.search-quiet-check-seconds";

    /** Default values of the keys above, seconds. */
    public static final class Defaults {
        public static final long OMISSION_PURGE_SECONDS = 600;
        public static final long EPISODE_EXPIRY_SECONDS = 900;
        public static final long IDLE_CONVERSATIONS_SECONDS = 600;
        public static final long AUDIT_RETENTION_SECONDS = 86_400;
        public static final long DB_STATISTICS_SECONDS = 60;
        public static final long SEARCH_MERGE_SECONDS = 86_400;
        public static final long SEARCH_QUIET_CHECK_SECONDS = 15;

        private Defaults() {}
    }

    private HousekeepingSettings() {}
}
