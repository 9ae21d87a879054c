package org.agentmemory.api.config;

/**
 * MicroProfile Config keys of skills and the cross-domain router (issue 35 items 2 and 3; spec §9.1, §9.4 and §9.5
 * give the reference's defaults). Every key can be set as a system property, an environment variable
 * ({@code MEMORY_ROUTER_CROSS_DOMAIN_DECAY}) or in {@code microprofile-config.properties}; a value out of range stops
 * the deployment with a message naming the key.
 */
public final class SkillSettings {

    /**
     * Whether the dream cycle extracts skills from an agent's successful episodes when the agent's registration does
     * not say (spec §9.4 {@code skill_auto_extract}). Type: boolean.
     */
    public static final String AUTO_EXTRACT = "memory.skills.auto-extract";

    /** Successful episodes of one category and tool set that make a skill. Type: int, 2 to 1,000. */
    public static final String EXTRACT_MIN_EPISODES = "memory.skills.extract-min-episodes";

    /** Most successful episodes (the newest) an extraction reads per agent. Type: int, 1 to 100,000. */
    public static final String EXTRACT_EPISODES = "memory.skills.extract-episodes";

    /** Least cosine of a query and another agent's domain description for its warnings to be shown. Type: 0 to 1. */
    public static final String ROUTER_SIMILARITY_THRESHOLD = "memory.router.similarity-threshold";

    /** Factor of another agent's warnings against the asking agent's own (relevance = cosine × it). Type: 0 to 1. */
    public static final String ROUTER_CROSS_DOMAIN_DECAY = "memory.router.cross-domain-decay";

    /** Most other agents whose warnings a query sees; 0 turns the router off. Type: int, 0 to 100. */
    public static final String ROUTER_MAX_RELEVANT_AGENTS = "memory.router.max-relevant-agents";

    /** Most failure warnings of one other agent. Type: int, 1 to 100. */
    public static final String ROUTER_WARNINGS_PER_AGENT = "memory.router.warnings-per-agent";

    /** Default values of the keys above (spec §9.4, §9.5). */
    public static final class Defaults {
        public static final boolean AUTO_EXTRACT = false;
        public static final int EXTRACT_MIN_EPISODES = 3;
        public static final int EXTRACT_EPISODES = 1_000;
        public static final double ROUTER_SIMILARITY_THRESHOLD = 0.5;
        public static final double ROUTER_CROSS_DOMAIN_DECAY = 0.6;
        public static final int ROUTER_MAX_RELEVANT_AGENTS = 2;
        public static final int ROUTER_WARNINGS_PER_AGENT = 2;

        private Defaults() {}
    }

    private SkillSettings() {}
}
