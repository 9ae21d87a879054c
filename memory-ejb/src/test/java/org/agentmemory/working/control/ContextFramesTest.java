package org.agentmemory.working.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.working.ContextFrame;
import org.junit.jupiter.api.Test;

/** The stored form of context frames and stacks, and the words of a frame's data. */
class ContextFramesTest {

    @Test
    void aStackRoundTripsBottomFirst() {
        List<ContextFrame> stack = List.of(
                new ContextFrame("task", Map.of("name", "research", "step", 2), Instant.parse("2026-01-01T00:00:00Z")),
                new ContextFrame("tool_use", Map.of(), Instant.parse("2026-01-01T00:00:01.123456Z")));
        String stored = ContextFrames.writeStack(stack);
        assertThat(stored).startsWith("[{\"data\":{\"name\":\"research\",\"step\":2},\"pushedAt\":");
        List<ContextFrame> read = ContextFrames.readStack(stored);
        assertThat(read).extracting(ContextFrame::type).containsExactly("task", "tool_use");
        assertThat(read.get(0).data()).containsEntry("name", "research");
        assertThat(read.get(1).pushedAt()).isEqualTo(Instant.parse("2026-01-01T00:00:01.123456Z"));
    }

    @Test
    void noFrameIsStoredAsNull() {
        assertThat(ContextFrames.write(null)).isNull();
        assertThat(ContextFrames.read(null)).isNull();
        assertThat(ContextFrames.readStack("[]")).isEmpty();
    }

    @Test
    void wordsAreKeysAndValuesInLowerCaseWithoutPunctuation() {
        assertThat(ContextFrames.words(Map.of("Task-Name", "Write the Q3 report!", "tags", List.of("x", 42))))
                .containsExactly("42", "name", "q3", "report", "tags", "task", "the", "write", "x");
    }
}
