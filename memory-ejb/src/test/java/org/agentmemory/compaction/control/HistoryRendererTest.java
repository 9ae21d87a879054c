package org.agentmemory.compaction.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.compaction.TurnView;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.junit.jupiter.api.Test;

class HistoryRendererTest {

    private static TurnView view(String id, String chatbot, String user, String assistant, String suffix) {
        return new TurnView(id, chatbot, user, assistant, suffix, TurnState.RAW, 1);
    }

    private static HistoryMessage user(String content, String chatbot, String turn) {
        return new HistoryMessage("user", content, chatbot, turn);
    }

    private static HistoryMessage assistant(String content, String chatbot, String turn) {
        return new HistoryMessage("assistant", content, chatbot, turn);
    }

    @Test
    void rendersEachRowAsUserThenAssistantWithTheSuffixAppended() {
        List<HistoryMessage> messages = HistoryRenderer.renderViews(
                List.of(
                        view("t1", "me", "hi", "hello", "\n\n<tool-activity>\n- t ok in={}\n</tool-activity>"),
                        view("t2", "me", "how?", "so", "")),
                "me",
                true);

        assertThat(messages)
                .containsExactly(
                        user("hi", "me", "t1"),
                                assistant("hello\n\n<tool-activity>\n- t ok in={}\n</tool-activity>", "me", "t1"),
                        user("how?", "me", "t2"), assistant("so", "me", "t2"));
    }

    @Test
    void emptyWhitespaceAndNullAssistantResponsesNeverRenderAsMessages() {
        List<TurnRecord> turns = List.of(
                TurnRecord.of("t1", "a", "ok"),
                TurnRecord.of("t2", "b", ""),
                TurnRecord.of("t3", "c", " \t\n\u00a0\u3000"),
                TurnRecord.of("t4", "d", null),
                TurnRecord.of("t5", "e", "fine"));

        List<HistoryMessage> messages =
                HistoryRenderer.renderTurns(turns, null, null, true, ContextBudget.ActivityLimit.DEFAULT);

        assertThat(messages)
                .containsExactly(
                        user("a", null, "t1"),
                        assistant("ok", null, "t1"),
                        user("e", null, "t5"),
                        assistant("fine", null, "t5"));
    }

    @Test
    void aBlankReplyWithToolActivityRendersTheBlockAlone() {
        List<HistoryMessage> messages = HistoryRenderer.renderViews(
                List.of(view("t1", null, "q", "  ", "\n\n<tool-activity>\n- t ok in={}\n</tool-activity>")),
                null,
                true);

        assertThat(messages)
                .containsExactly(
                        user("q", null, "t1"),
                        assistant("<tool-activity>\n- t ok in={}\n</tool-activity>", null, "t1"));
    }

    @Test
    void aBlankReplyWithoutToolActivityRendersNothing() {
        assertThat(HistoryRenderer.renderViews(List.of(view("t1", null, "q", "  ", "")), null, true))
                .isEmpty();
    }

    @Test
    void aToolOnlyTurnRendersItsToolCallsAndResultsWithoutCompaction() {
        TurnRecord toolOnly = TurnRecord.of("t1", "weather in Paris?", "")
                .withToolInvocations(
                        List.of(ToolInvocationRecord.of("weather", Map.of("city", "Paris"), "18 C, sunny")));

        List<HistoryMessage> messages = HistoryRenderer.renderTurns(
                List.of(toolOnly, TurnRecord.of("t2", "thanks", "you're welcome")),
                null,
                null,
                true,
                ContextBudget.ActivityLimit.DEFAULT);

        assertThat(messages)
                .containsExactly(
                        user("weather in Paris?", null, "t1"),
                        assistant(
                                "<tool-activity>\n- weather ok in={\"city\":\"Paris\"} out=18 C, sunny\n</tool-activity>",
                                null,
                                "t1"),
                        user("thanks", null, "t2"),
                        assistant("you're welcome", null, "t2"));
        assertThat(HistoryRenderer.rendersSomething(toolOnly)).isTrue();
        assertThat(HistoryRenderer.rendersSomething(TurnRecord.of("t3", "q", " ")))
                .isFalse();
    }

    @Test
    void foreignRowsAreLabelledBeforeTextAndSuffixOrDropped() {
        List<TurnView> views = List.of(
                view("t1", "other", "q1", "a1", "\n\nS"),
                view("t2", "me", "q2", "a2", ""),
                view("t3", null, "q3", "a3", ""));

        assertThat(HistoryRenderer.renderViews(views, "me", true))
                .extracting(HistoryMessage::content)
                .containsExactly("q1", "[agent:other] a1\n\nS", "q2", "a2", "q3", "a3");
        assertThat(HistoryRenderer.renderViews(views, "me", false))
                .extracting(HistoryMessage::turnId)
                .containsExactly("t2", "t2", "t3", "t3");
        assertThat(HistoryRenderer.renderViews(views, null, false)).hasSize(6);
    }

    @Test
    void rendersStrictlyAlternatingRolesWhenUserTextIsBlankByMergingIntoThePreviousAnswer() {
        List<HistoryMessage> messages = HistoryRenderer.renderViews(
                List.of(
                        view("t1", "a", "first", "one", ""),
                        view("t2", "b", " ", "two", ""),
                        view("t3", "c", "third", "three", "")),
                null,
                true);

        assertThat(messages)
                .containsExactly(
                        user("first", "a", "t1"),
                        assistant("one\n\ntwo", "a", "t1"),
                        user("third", "c", "t3"),
                        assistant("three", "c", "t3"));
    }

    @Test
    void aLeadingRowWithoutUserTextIsSkippedSoTheListStartsWithUser() {
        List<HistoryMessage> messages = HistoryRenderer.renderViews(
                List.of(view("t1", null, "", "orphan", ""), view("t2", null, "q", "a", "")), null, true);

        assertThat(messages).containsExactly(user("q", null, "t2"), assistant("a", null, "t2"));
    }

    @Test
    void maxTurnsKeepsTheLastTurnsBeforeFiltering() {
        List<TurnRecord> turns =
                List.of(TurnRecord.of("t1", "a", "1"), TurnRecord.of("t2", "b", "2"), TurnRecord.of("t3", "c", " "));

        assertThat(HistoryRenderer.renderTurns(turns, 2, null, true, ContextBudget.ActivityLimit.DEFAULT))
                .extracting(HistoryMessage::turnId)
                .containsExactly("t2", "t2");
        assertThat(HistoryRenderer.renderTurns(turns, 0, null, true, ContextBudget.ActivityLimit.DEFAULT))
                .isEmpty();
        assertThat(HistoryRenderer.renderTurns(turns, -1, null, true, ContextBudget.ActivityLimit.DEFAULT))
                .isEmpty();
        assertThat(HistoryRenderer.renderTurns(turns, 99, null, true, ContextBudget.ActivityLimit.DEFAULT))
                .hasSize(4);
        assertThat(HistoryRenderer.renderTurns(List.of(), null, null, true, ContextBudget.ActivityLimit.DEFAULT))
                .isEmpty();
    }

    @Test
    void theInputIsNotMutated() {
        List<TurnView> views = new ArrayList<>(List.of(view("t1", null, "a", "b", ""), view("t2", null, "", "c", "")));
        List<TurnView> copy = List.copyOf(views);

        HistoryRenderer.renderViews(views, null, true);

        assertThat(views).isEqualTo(copy);
    }
}
