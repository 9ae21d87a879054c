package org.agentmemory.skills.control;

import java.util.Map;
import org.agentmemory.api.skills.SkillInput;
import org.agentmemory.platform.llm.JsonAnswers;
import org.agentmemory.platform.llm.UnreadableAnswerException;
import org.agentmemory.platform.text.CodePoints;

/**
 * The prompt that asks a chat model to write an extracted skill (the dream cycle's model, spec §12.2 step 4's client)
 * and the reading of its answer. The prompt holds the cluster's category, tools, episode count and lessons only, never
 * an episode's situation or action (they may quote users); the model answers {@code description} and
 * {@code instructions}. The name, tools and evidence stay the heuristic's, so a re-run upserts the same skill.
 */
public final class SkillPrompt {

    /** The system message. */
    public static final String SYSTEM =
            "You turn an AI agent's lessons from successful work into a reusable skill. Respond ONLY with a JSON object.";

    private SkillPrompt() {}

    /**
     * @param skill the heuristic's skill of the cluster
     * @return the user message
     */
    public static String build(SkillExtraction.Extracted skill) {
        StringBuilder p = new StringBuilder(512);
        p.append("An agent succeeded ")
                .append(skill.episodes())
                .append(" times at ")
                .append(skill.category().replace('_', ' '))
                .append(skill.tools().isEmpty() ? "" : " using the tools " + String.join(", ", skill.tools()))
                .append(". What it learned:\n");
        for (String lesson : skill.lessons()) {
            p.append("- ").append(lesson.replaceAll("\\s+", " ")).append('\n');
        }
        p.append("\nWrite the skill as a JSON object with exactly these fields:\n")
                .append("- \"description\": one or two sentences saying what the skill is for\n")
                .append("- \"instructions\": markdown steps saying how to apply it\n\n")
                .append("Use only what the lessons say. Respond ONLY with the JSON object.");
        return p.toString();
    }

    /**
     * @param skill   the heuristic's skill
     * @param content the model's answer
     * @return the skill with the model's description and instructions, cut to the skill limits
     * @throws UnreadableAnswerException when no JSON object is found, or a field is missing, blank or not a string
     */
    public static SkillExtraction.Extracted read(SkillExtraction.Extracted skill, String content) {
        Map<String, Object> object = JsonAnswers.object(content);
        String description = text(object, "description", content);
        String instructions = text(object, "instructions", content);
        return skill.with(
                SkillTexts.cut(description.strip(), SkillInput.MAX_DESCRIPTION),
                SkillTexts.cut(instructions.strip(), SkillInput.MAX_INSTRUCTIONS));
    }

    private static String text(Map<String, Object> object, String field, String content) {
        Object value = object.get(field);
        if (!(value instanceof String text) || CodePoints.isBlank(text) || text.indexOf('\u0000') >= 0) {
            throw new UnreadableAnswerException("The model's skill has " + (value == null ? "no" : "an unusable")
                    + " '" + field + "'; description and instructions are required strings: "
                    + UnreadableAnswerException.excerpt(content));
        }
        return text;
    }
}
