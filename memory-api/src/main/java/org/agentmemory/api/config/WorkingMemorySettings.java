package org.agentmemory.api.config;

/**
 * MicroProfile Config keys of working memory (issue 35 item 1; the defaults are seed 003's). Every key can be set as a
 * system property, an environment variable ({@code MEMORY_WORKING_SHORT_TERM_CAPACITY}) or in
 * {@code microprofile-config.properties}; a value out of range stops the deployment with a message naming the key.
 * Changing a value applies to what happens next: items already in a tier stay there.
 */
public final class WorkingMemorySettings {

    /** Most short-term items per session; storing one more evicts the oldest. Type: int, 1 to 10,000. */
    public static final String SHORT_TERM_CAPACITY = "memory.working.short-term-capacity";

    /** Reads by id after which a short-term item is promoted to long-term. Type: int, 1 to 1,000,000. */
    public static final String PROMOTION_ACCESSES = "memory.working.promotion-accesses";

    /**
     * Importance at or above which an item is long-term: stored there directly, or promoted when an update raises its
     * importance to it. Type: double, 0 to 1.
     */
    public static final String IMPORTANCE_THRESHOLD = "memory.working.importance-threshold";

    /** Default values of the keys above (seed 003's {@code ContextualMemory} constructor). */
    public static final class Defaults {
        public static final int SHORT_TERM_CAPACITY = 20;
        public static final int PROMOTION_ACCESSES = 3;
        public static final double IMPORTANCE_THRESHOLD = 0.7;

        private Defaults() {}
    }

    private WorkingMemorySettings() {}
}
