package org.agentmemory.skills.control;

import java.util.List;
import java.util.StringJoiner;
import org.agentmemory.api.skills.SkillRegistryOperations;
import org.agentmemory.platform.text.CodePoints;

/**
 * The texts of a skill: what is embedded for the vector leg of skill search, and how skills are shown in the skills
 * section of an assembled context (spec §9.2 {@code relevant_skills}; the format is
 * {@link SkillRegistryOperations#relevantSkills}'s). Lines end with LF; no text ends with a line break.
 */
public final class SkillTexts {

    /** What a shown skill holds. */
    public record Shown(String name, String description, List<String> tools, String instructions) {}

    private SkillTexts() {}

    /**
     * @param name         the name
     * @param description  the description
     * @param tools        the tool names
     * @param instructions the instructions
     * @return name LF description, then {@code Tools: a, b} when there are tools, then LF instructions
     */
    public static String embedded(String name, String description, List<String> tools, String instructions) {
        StringJoiner text = new StringJoiner("\n").add(name).add(description);
        if (!tools.isEmpty()) {
            text.add("Tools: " + String.join(", ", tools));
        }
        return text.add(instructions).toString();
    }

    /**
     * @param skills the skills to show, best first
     * @return per skill {@code ### {name}} LF description, {@code Tools: a, b} when it has tools, {@code Instructions:}
     *         LF its instructions cut to {@value SkillRegistryOperations#SECTION_INSTRUCTIONS} code points (the last
     *         three replaced by {@code ...}); skills separated by a blank line; {@code ""} for none
     */
    public static String section(List<Shown> skills) {
        StringJoiner all = new StringJoiner("\n\n");
        for (Shown s : skills) {
            StringJoiner one = new StringJoiner("\n").add("### " + s.name()).add(s.description());
            if (!s.tools().isEmpty()) {
                one.add("Tools: " + String.join(", ", s.tools()));
            }
            one.add("Instructions:").add(cut(s.instructions(), SkillRegistryOperations.SECTION_INSTRUCTIONS));
            all.add(one.toString());
        }
        return all.toString();
    }

    /** @return the text, or its first {@code max − 3} code points and {@code ...} when it is longer than {@code max} */
    static String cut(String text, int max) {
        return CodePoints.length(text) <= max ? text : CodePoints.head(text, max - 3) + "...";
    }
}
