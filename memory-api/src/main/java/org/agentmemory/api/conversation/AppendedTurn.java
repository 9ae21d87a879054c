package org.agentmemory.api.conversation;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Result of adding a turn.
 *
 * @param conversationId the conversation the turn belongs to (created when it did not exist)
 * @param turn           the turn as stored: normalized, counted, sequenced
 * @param created        {@code false} when a turn with the same id already existed and nothing was written
 */
@Schema(description = "The result of adding a turn.")
public record AppendedTurn(
        @Schema(
                description = "The service's id of the conversation the turn belongs to (created when it did not"
                        + " exist).")
        long conversationId,

        @Schema(
                description = "The turn as stored: normalized, counted and sequenced; for a repeated turnId, the"
                        + " turn stored before.")
        TurnRecord turn,

        @Schema(description = "false when a turn with this turnId already existed and nothing was written.")
        boolean created)
        implements Serializable {}
