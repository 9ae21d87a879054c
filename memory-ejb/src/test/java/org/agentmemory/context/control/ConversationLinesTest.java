package org.agentmemory.context.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.agentmemory.api.compaction.HistoryMessage;
import org.junit.jupiter.api.Test;

class ConversationLinesTest {

    @Test
    void messagesBecomeRoleLinesAndMultiLineContentStaysMultiLine() {
        List<HistoryMessage> messages = List.of(
                new HistoryMessage(HistoryMessage.USER, "What failed?", "bot", "t1"),
                new HistoryMessage(
                        HistoryMessage.ASSISTANT,
                        "The rollout.\n\n<tool-activity>\n- bash ok in={}\n</tool-activity>",
                        "bot",
                        "t1"),
                new HistoryMessage(HistoryMessage.USER, "Why?", "bot", "t2"),
                new HistoryMessage(HistoryMessage.ASSISTANT, "A network policy.", "bot", "t2"));
        assertThat(String.join("\n", ConversationLines.messages(messages)))
                .isEqualTo("User: What failed?\n"
                        + "Assistant: The rollout.\n\n<tool-activity>\n- bash ok in={}\n</tool-activity>\n"
                        + "User: Why?\nAssistant: A network policy.");
    }

    @Test
    void noMessagesGiveAnEmptySection() {
        assertThat(ConversationLines.messages(List.of())).isEmpty();
    }
}
