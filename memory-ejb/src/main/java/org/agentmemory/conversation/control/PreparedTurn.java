package org.agentmemory.conversation.control;

import java.util.List;
import java.util.Objects;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.omission.Omission;

/**
 * A turn ready to be stored, with the contents offloaded from it (spec §6 steps 1–6).
 *
 * @param turn      the normalized (when enabled), counted, offloaded turn with {@code schemaVersion} 2;
 *                  never {@code null}
 * @param omissions the offloaded contents to put in the omission store, one per distinct content id, in
 *                  invocation order; never {@code null}, unmodifiable
 */
public record PreparedTurn(TurnRecord turn, List<Omission> omissions) {

    /**
     * Copies the omissions.
     *
     * @param turn      the prepared turn; never {@code null}
     * @param omissions the offloaded contents, or {@code null} for none
     * @throws NullPointerException when {@code turn} is {@code null}
     */
    public PreparedTurn {
        Objects.requireNonNull(turn, "turn");
        omissions = omissions == null ? List.of() : List.copyOf(omissions);
    }
}
