package org.agentmemory.api.compaction;

import java.io.Serializable;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One provider-neutral, text-only message of a rendered history (spec §8.6). A rendered list alternates
 * strictly {@code user}, {@code assistant}, …, starts with {@code user} and ends with {@code assistant}.
 *
 * @param role      {@link #USER} or {@link #ASSISTANT}; anything else is an {@link IllegalArgumentException}
 * @param content   the message text; never {@code null}
 * @param chatbotId the agent that produced the turn, or {@code null} for legacy turns; for a message merged
 *                  from several turns, the first turn's agent
 * @param turnId    the originating turn's id; for a merged message, the first turn's id
 */
@Schema(description = "One provider-neutral, text-only message of a rendered history.")
public record HistoryMessage(
        @Schema(
                description = "user or assistant. A rendered history alternates strictly, starts with user and ends"
                        + " with assistant.")
        String role,

        @Schema(description = "The message text; never null or blank.")
        String content,

        @Schema(
                description = "The agent that produced the turn, or null for turns without one; for a message"
                        + " merged from several turns, the first turn's agent.")
        String chatbotId,

        @Schema(description = "The originating turn's id; for a merged message, the first turn's id.")
        String turnId)
        implements Serializable {

    /** The user role. */
    public static final String USER = "user";
    /** The assistant role. */
    public static final String ASSISTANT = "assistant";

    public HistoryMessage {
        if (!USER.equals(role) && !ASSISTANT.equals(role)) {
            throw new IllegalArgumentException("HistoryMessage.role must be \"user\" or \"assistant\" but was "
                    + (role == null ? "null" : "\"" + role + "\""));
        }
        Objects.requireNonNull(content, "HistoryMessage.content must not be null");
    }
}
