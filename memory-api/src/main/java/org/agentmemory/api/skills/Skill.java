package org.agentmemory.api.skills;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A stored skill of an agent (spec §9.1, issue 35 item 2).
 *
 * @param skillId      UUID of the skill; never {@code null}
 * @param agentId      the agent it belongs to; never {@code null}
 * @param name         its name, unique within the agent
 * @param description  what it is for
 * @param instructions how to apply it
 * @param tools        tool names it uses; never {@code null}
 * @param examples     examples of applying it; never {@code null}
 * @param source       who wrote it
 * @param evidence     for an extracted skill, {@code episode:<id>} references of the successful episodes it was
 *                     distilled from (at most 100, sorted); empty for a manual one
 * @param version      1 when created, one more at every change; the {@code ETag} of REST answers
 * @param createdAt    when it was created (UTC)
 * @param updatedAt    when it last changed (UTC)
 */
@Schema(description = "A skill of an agent: what it knows how to do, how, and with which tools.")
public record Skill(
        @Schema(description = "UUID of the skill.") String skillId,
        @Schema(description = "The agent it belongs to.") String agentId,

        @Schema(description = "Its name, unique within the agent.")
        String name,

        @Schema(description = "What it is for.") String description,
        @Schema(description = "How to apply it.") String instructions,

        @Schema(description = "Tool names it uses; empty when none.")
        List<String> tools,

        @Schema(description = "Examples of applying it; empty when none.")
        List<String> examples,

        @Schema(description = "Who wrote it: manual or extracted.")
        SkillSource source,

        @Schema(
                description = "For an extracted skill, episode:<id> references of the successful episodes it was"
                        + " distilled from (at most 100); empty for a manual one.")
        List<String> evidence,

        @Schema(description = "1 when created, one more at every change; the ETag of REST answers.")
        long version,

        @Schema(description = "When it was created, ISO-8601 UTC.")
        Instant createdAt,

        @Schema(description = "When it last changed, ISO-8601 UTC.")
        Instant updatedAt)
        implements Serializable {

    /** Copies the lists, {@code null} becoming empty. */
    public Skill {
        tools = tools == null ? List.of() : List.copyOf(tools);
        examples = examples == null ? List.of() : List.copyOf(examples);
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }
}
