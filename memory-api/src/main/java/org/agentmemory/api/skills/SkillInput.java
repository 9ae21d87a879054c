package org.agentmemory.api.skills;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What a caller writes into a skill (spec §9.1 skills; issue 35 item 2). Limits, in code points, checked before
 * anything is written (an {@code InvalidInputException} names the field): {@code name} 1–{@value #MAX_NAME} without
 * control characters, unique per agent; {@code description} 1–{@value #MAX_DESCRIPTION}; {@code instructions}
 * 1–{@value #MAX_INSTRUCTIONS} (line breaks allowed, no NUL); at most {@value #MAX_TOOLS} tools of 1–255 code points
 * without control characters; at most {@value #MAX_EXAMPLES} examples of 1–{@value #MAX_EXAMPLE} code points.
 *
 * @param name         the skill's name, unique within the agent; required
 * @param description  what the skill is for, one or two sentences; required
 * @param instructions how to apply it; required
 * @param tools        tool names the skill uses; {@code null} = none
 * @param examples     short examples of applying it; {@code null} = none
 */
@Schema(description = "What a caller writes into a skill.")
public record SkillInput(
        @Schema(description = "The name, 1 to 200 code points without control characters; unique within the agent.")
        String name,

        @Schema(description = "What the skill is for, 1 to 2,000 code points.")
        String description,

        @Schema(description = "How to apply it, 1 to 16,000 code points; line breaks allowed.")
        String instructions,

        @Schema(description = "Tool names the skill uses, at most 50 of 1 to 255 code points; absent = none.")
        List<String> tools,

        @Schema(description = "Short examples of applying it, at most 20 of 1 to 4,000 code points; absent = none.")
        List<String> examples)
        implements Serializable {

    /** Longest name, code points. */
    public static final int MAX_NAME = 200;
    /** Longest description, code points. */
    public static final int MAX_DESCRIPTION = 2_000;
    /** Longest instructions, code points. */
    public static final int MAX_INSTRUCTIONS = 16_000;
    /** Most tools. */
    public static final int MAX_TOOLS = 50;
    /** Most examples. */
    public static final int MAX_EXAMPLES = 20;
    /** Longest example, code points. */
    public static final int MAX_EXAMPLE = 4_000;
}
