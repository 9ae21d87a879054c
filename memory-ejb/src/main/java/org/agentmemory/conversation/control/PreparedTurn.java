package org.agentmemory.conversation.control;

import java.util.List;

import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.omission.Omission;

/**
 * A turn ready to store and the omissions its offload produced.
 *
 * @param turn      the turn to store
 * @param omissions contents to put in the omission store, de-duplicated by content id
 */
public record PreparedTurn(TurnRecord turn, List<Omission> omissions) {
}
