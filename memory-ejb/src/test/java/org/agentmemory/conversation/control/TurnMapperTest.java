package org.agentmemory.conversation.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Locale;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.InvocationStatus;
import org.junit.jupiter.api.Test;

class TurnMapperTest {

    @Test
    void everyStateReadsBackFromItsStoredName() {
        for (TurnState state : TurnState.values()) {
            assertEquals(state, TurnMapper.state(state.name().toLowerCase(Locale.ROOT)));
            assertEquals(state, TurnMapper.state(state.name()), "rows written in upper case still map");
        }
    }

    @Test
    void everyStatusReadsBackFromItsStoredName() {
        for (InvocationStatus status : InvocationStatus.values()) {
            assertEquals(status, TurnMapper.status(status.name().toLowerCase(Locale.ROOT)));
            assertEquals(
                    status, TurnMapper.status("Completed".equalsIgnoreCase(status.name()) ? "Completed" : "Error"));
        }
    }

    @Test
    void unknownStoredValuesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> TurnMapper.state("compacted"));
        assertThrows(IllegalArgumentException.class, () -> TurnMapper.status("timeout"));
    }
}
