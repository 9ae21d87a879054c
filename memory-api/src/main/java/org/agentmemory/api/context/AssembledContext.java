package org.agentmemory.api.context;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
@Schema(
        description = "The assembled long-term memory context of a query, with its XML-tagged prompt string."
                + " Section sizes are estimates: code points / 4.")
public record AssembledContext(
        @Schema(description = "The conversation, or null when the key has no conversation yet.")
        Long conversationId,

        @Schema(description = "Past failures to avoid, from the episodic-warnings providers; \"\" when none.")
        String episodicWarnings,

        @Schema(description = "Relevant skills, from the skill providers; \"\" when none.")
        String relevantSkills,

        @Schema(
                description = "The compacted conversation as 'User: …' / 'Assistant: …' lines, oldest lines dropped"
                        + " first when over its share; \"\" when none.")
        String conversationSummary,

        @Schema(
                description = "Brain knowledge, from the brain providers, asked only when config.enableBrain is"
                        + " true; \"\" when none.")
        String semanticKnowledge,

        @Schema(description = "Sum of the four sections' estimates, tokens.")
        int tokensUsed,

        @Schema(description = "The configured maxContextTokens (not its 90 % working share).")
        int tokensBudget,

        @Schema(
                description = "The non-empty sections joined by a blank line, each as <tag>, LF, text, LF, </tag>, in"
                        + " the order past_failures_to_avoid, relevant_skills, recent_conversation, brain_knowledge; \"\""
                        + " when all are empty.")
        String prompt,

        @Schema(description = "How the conversation section's history was compacted before it was flattened.")
        ContextOutcome conversationOutcome)
        implements Serializable {}
