package org.agentmemory.compaction.control;

import static org.agentmemory.compaction.control.Turns.failed;
import static org.agentmemory.compaction.control.Turns.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.llm.UnreadableAnswerException;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.junit.jupiter.api.Test;

class SummaryPromptTest {

    private static final TokenCounter COUNTER = TokenCounters.defaultCounter();

    @Test
    void thePromptCarriesTheCurrentSummaryAndOnlyTheNewTurns() {
        TurnRecord turn = turn("t7", "Move the launch?", "Yes, to 3 June.", failed("calendar", Map.of(), "busy"));

        String prompt = SummaryPrompt.build("- User: When is the launch?", List.of(turn));

        assertThat(prompt)
                .isEqualTo("Current summary:\n- User: When is the launch?\n\nNew turns, oldest first:\n\n"
                        + "User: Move the launch?\nAssistant: Yes, to 3 June.\nTools: calendar error (busy)\n"
                        + "\nAnswer with {\"summary\": \"...\"}: the current summary with the new turns merged in.");
        assertThat(SummaryPrompt.build(null, List.of(turn))).startsWith("Current summary:\n(none yet)\n\n");
        assertThat(SummaryPrompt.SYSTEM).contains("{\"summary\": \"<the updated summary>\"}");
    }

    @Test
    void longTextsAreCutWithACount() {
        String block = SummaryPrompt.turnBlock(turn("t1", "x".repeat(2_500), "ok"));

        assertThat(block).startsWith("User: " + "x".repeat(SummaryPrompt.MAX_TEXT_CHARS) + " \u2026(+500 chars)\n");
    }

    @Test
    void manyTurnsAreSplitIntoCallsOfBoundedSizeInOrder() {
        List<TurnRecord> turns = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            turns.add(turn("t" + i, "question " + i + " " + "lorem ipsum ".repeat(150), "answer " + i));
        }

        List<List<TurnRecord>> calls = SummaryPrompt.calls(turns, COUNTER);

        assertThat(calls).hasSizeGreaterThan(1);
        List<TurnRecord> flattened = new ArrayList<>();
        for (List<TurnRecord> call : calls) {
            int tokens = call.stream()
                    .mapToInt(t -> COUNTER.count(SummaryPrompt.turnBlock(t)))
                    .sum();
            assertThat(tokens).isLessThanOrEqualTo(SummaryPrompt.MAX_TURN_TOKENS);
            flattened.addAll(call);
        }
        assertThat(flattened).isEqualTo(turns);
        assertThat(SummaryPrompt.calls(List.of(), COUNTER)).isEmpty();
    }

    @Test
    void theAnswerIsReadFromItsJsonObject() {
        assertThat(SummaryPrompt.parse("{\"summary\": \" - a\\n- b \"}")).isEqualTo("- a\n- b");
        assertThat(SummaryPrompt.parse("Here:\n```json\n{\"summary\":\"- c\"}\n```"))
                .isEqualTo("- c");
        assertThatThrownBy(() -> SummaryPrompt.parse("{\"summary\": \"  \"}"))
                .isInstanceOf(UnreadableAnswerException.class)
                .hasMessageContaining("no non-blank \"summary\" string");
        assertThatThrownBy(() -> SummaryPrompt.parse("{\"text\": \"- a\"}"))
                .isInstanceOf(UnreadableAnswerException.class);
        assertThatThrownBy(() -> SummaryPrompt.parse("no json")).isInstanceOf(UnreadableAnswerException.class);
    }
}
