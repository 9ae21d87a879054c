package org.agentmemory.api.context;

/**
 * The sections of an assembled context that other components fill through
 * {@link ContextSectionProvider}s (spec §9.2, §9.3). The conversation section is not here: the service
 * renders it itself from the compacted history.
 */
public enum ContextSection {
    /** Past failures to avoid ({@code <past_failures_to_avoid>}), e.g. from episodic memory. */
    EPISODIC_WARNINGS,
    /** Skills relevant to the query ({@code <relevant_skills>}). */
    RELEVANT_SKILLS,
    /** Consolidated knowledge ({@code <brain_knowledge>}), asked for only when the brain is enabled. */
    BRAIN_KNOWLEDGE
}
