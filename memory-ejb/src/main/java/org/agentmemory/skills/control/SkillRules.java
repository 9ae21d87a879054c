package org.agentmemory.skills.control;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.skills.SkillInput;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.validation.InputRules;

/**
 * The rules of a skill's fields ({@link SkillInput}'s limits): every break is an {@link InvalidInputException} naming
 * the field ({@code name}, {@code tools[2]}, …) and the rule, thrown before anything is written. Texts are kept as
 * given; a tool named twice is kept once, in first-seen order.
 */
public final class SkillRules {

    private SkillRules() {}

    /**
     * A skill's checked fields.
     *
     * @param name         the name
     * @param description  the description
     * @param instructions the instructions
     * @param tools        distinct tool names, in the given order
     * @param examples     the examples
     */
    public record Fields(
            String name, String description, String instructions, List<String> tools, List<String> examples) {}

    /**
     * @param input what a caller wrote
     * @return the checked fields
     * @throws InvalidInputException when a field breaks a rule
     */
    public static Fields check(SkillInput input) throws InvalidInputException {
        if (input == null) {
            throw new InvalidInputException(
                    "body", "required", "The skill is required (name, description, instructions).");
        }
        text("name", input.name(), SkillInput.MAX_NAME, InputRules.Controls.NONE);
        text("description", input.description(), SkillInput.MAX_DESCRIPTION, InputRules.Controls.NO_NUL);
        text("instructions", input.instructions(), SkillInput.MAX_INSTRUCTIONS, InputRules.Controls.NO_NUL);
        List<String> tools = input.tools() == null ? List.of() : input.tools();
        if (tools.size() > SkillInput.MAX_TOOLS) {
            throw new InvalidInputException(
                    "tools",
                    "max-items",
                    "tools lists " + tools.size() + " tools; the limit is " + SkillInput.MAX_TOOLS + ".");
        }
        Set<String> distinct = new LinkedHashSet<>();
        for (int i = 0; i < tools.size(); i++) {
            text("tools[" + i + "]", tools.get(i), InputRules.MAX_TOOL_NAME_CODE_POINTS, InputRules.Controls.NONE);
            distinct.add(tools.get(i));
        }
        List<String> examples = input.examples() == null ? List.of() : input.examples();
        if (examples.size() > SkillInput.MAX_EXAMPLES) {
            throw new InvalidInputException(
                    "examples",
                    "max-items",
                    "examples lists " + examples.size() + " examples; the limit is " + SkillInput.MAX_EXAMPLES + ".");
        }
        for (int i = 0; i < examples.size(); i++) {
            text("examples[" + i + "]", examples.get(i), SkillInput.MAX_EXAMPLE, InputRules.Controls.NO_NUL);
        }
        return new Fields(
                input.name(),
                input.description(),
                input.instructions(),
                List.copyOf(new ArrayList<>(distinct)),
                List.copyOf(examples));
    }

    /** A required text: present, not blank, valid Unicode, controls as given, at most {@code max} code points. */
    static void text(String field, String value, int max, InputRules.Controls controls) throws InvalidInputException {
        if (value == null) {
            throw new InvalidInputException(field, "required", field + " is required.");
        }
        if (CodePoints.isBlank(value)) {
            throw new InvalidInputException(field, "not-blank", field + " must contain a non-whitespace character.");
        }
        InputRules.checkText(field, value, controls, max);
    }
}
