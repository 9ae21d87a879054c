package org.agentmemory.context.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The assembled long-term context (spec §9.2 {@code MemoryContext}).
 *
 * @param episodicWarnings   past failures to avoid; never {@code null} ({@code ""} when empty)
 * @param relevantSkills     applicable skills; never {@code null}
 * @param conversationSummary recent conversation; never {@code null}
 * @param semanticKnowledge  brain knowledge; never {@code null}
 * @param tokensUsed         Σ of the sections' estimates ({@code len / 4}, code points), tokens
 * @param tokensBudget       the configured {@code maxContextTokens} (not the 90 % working budget)
 */
public record MemoryContext(
        String episodicWarnings,
        String relevantSkills,
        String conversationSummary,
        String semanticKnowledge,
        int tokensUsed,
        int tokensBudget) {

    public MemoryContext {
        episodicWarnings = Objects.requireNonNullElse(episodicWarnings, "");
        relevantSkills = Objects.requireNonNullElse(relevantSkills, "");
        conversationSummary = Objects.requireNonNullElse(conversationSummary, "");
        semanticKnowledge = Objects.requireNonNullElse(semanticKnowledge, "");
    }

    /**
     * The non-empty sections joined by a blank line, each as {@code <tag>} LF text LF {@code </tag>}, in
     * this order (which differs from the fill order): {@code past_failures_to_avoid},
     * {@code relevant_skills}, {@code recent_conversation}, {@code brain_knowledge}.
     *
     * @return the prompt text; {@code ""} when every section is empty
     */
    public String toPromptString() {
        List<String> sections = new ArrayList<>(4);
        section(sections, "past_failures_to_avoid", episodicWarnings);
        section(sections, "relevant_skills", relevantSkills);
        section(sections, "recent_conversation", conversationSummary);
        section(sections, "brain_knowledge", semanticKnowledge);
        return String.join("\n\n", sections);
    }

    private static void section(List<String> sections, String tag, String text) {
        if (!text.isEmpty()) {
            sections.add("<" + tag + ">\n" + text + "\n</" + tag + ">");
        }
    }
}
