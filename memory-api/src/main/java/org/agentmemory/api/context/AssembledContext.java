package org.agentmemory.api.context;

import java.io.Serializable;

/**
 * The assembled long-term memory context (spec §9.2 {@code MemoryContext}), with its XML-tagged prompt string.
 * Section sizes are the assembler's estimate: {@code len(text) / 4} in code points.
 *
 * @param conversationId      the conversation, or {@code null} when the key has no conversation yet
 * @param episodicWarnings    past failures to avoid (from {@link ContextSection#EPISODIC_WARNINGS} providers);
 *                            {@code ""} when none
 * @param relevantSkills      skills (from {@link ContextSection#RELEVANT_SKILLS} providers); {@code ""} when none
 * @param conversationSummary the compacted conversation as {@code User: …} / {@code Assistant: …} lines, oldest
 *                            lines dropped first when over its allocation; {@code ""} when none
 * @param semanticKnowledge   brain knowledge (from {@link ContextSection#BRAIN_KNOWLEDGE} providers, asked only
 *                            when the brain is enabled); {@code ""} when none
 * @param tokensUsed          Σ of the four sections' estimates, tokens
 * @param tokensBudget        the configured {@code maxContextTokens} (not its 90 % working share)
 * @param prompt              the non-empty sections joined by a blank line, each {@code <tag>} LF text LF
 *                            {@code </tag>}, in the order {@code past_failures_to_avoid}, {@code relevant_skills},
 *                            {@code recent_conversation}, {@code brain_knowledge}; {@code ""} when all are empty
 * @param conversationOutcome how the conversation section's history was compacted before it was flattened
 */
public record AssembledContext(
        Long conversationId,
        String episodicWarnings,
        String relevantSkills,
        String conversationSummary,
        String semanticKnowledge,
        int tokensUsed,
        int tokensBudget,
        String prompt,
        ContextOutcome conversationOutcome) implements Serializable {
}
