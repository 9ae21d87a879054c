package org.agentmemory.platform.validation;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.junit.jupiter.api.Test;

class InputRulesTest {

    private static TurnRecord turn(String message) {
        return TurnRecord.of("t", message, "ok");
    }

    @Test
    void aTurnBlankByTheRendersRuleIsRefusedAsEmpty() {
        // No-break spaces are blank to the renderer (Python's isspace), so such a turn would be stored and never shown.
        TurnRecord blank = TurnRecord.of("t1", "\u00a0\u3000", "\u0085 \t");
        assertThatThrownBy(() -> InputRules.checkTurn("turn.", blank, true))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("turn.toolInvocations");
        TurnRecord toolOnly = TurnRecord.of("t2", "\u00a0", "")
                .withToolInvocations(List.of(ToolInvocationRecord.of("weather", Map.of(), "18 C")));
        assertThatCode(() -> InputRules.checkTurn("turn.", toolOnly, true)).doesNotThrowAnyException();
    }

    @Test
    void messagesAreBoundedInCodePoints() {
        String atLimit = "\uD83D\uDE00".repeat(InputRules.MAX_MESSAGE_CODE_POINTS);
        assertThatCode(() -> InputRules.checkTurn("turn.", turn(atLimit), true)).doesNotThrowAnyException();
        assertThatThrownBy(() -> InputRules.checkTurn("turn.", turn(atLimit + "x"), true))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.field()).isEqualTo("turn.userMessage");
                    org.assertj.core.api.Assertions.assertThat(e.rule()).isEqualTo("max-length");
                });
    }

    @Test
    void toolOutputsMayBeLargerThanMessagesButNotUnbounded() {
        TurnRecord big = turn("q")
                .withToolInvocations(List.of(
                        ToolInvocationRecord.of("read", null, "z".repeat(InputRules.MAX_TOOL_OUTPUT_CODE_POINTS))));
        assertThatCode(() -> InputRules.checkTurn("", big, true)).doesNotThrowAnyException();
        TurnRecord tooBig = turn("q")
                .withToolInvocations(List.of(
                        ToolInvocationRecord.of("read", null, "z".repeat(InputRules.MAX_TOOL_OUTPUT_CODE_POINTS + 1))));
        assertThatThrownBy(() -> InputRules.checkTurn("", tooBig, true))
                .isInstanceOfSatisfying(
                        InvalidInputException.class,
                        e -> org.assertj.core.api.Assertions.assertThat(e.field())
                                .isEqualTo("toolInvocations[0].output"));
    }

    @Test
    void jsonDocumentsAreBoundedByTheirKeysAndValues() {
        List<Object> values = new ArrayList<>(Arrays.asList(new Object[64]));
        for (int i = 0; i < values.size(); i++) {
            values.set(i, "v".repeat(InputRules.MAX_JSON_CODE_POINTS / 64));
        }
        TurnRecord heavy = turn("q").withMetadata(Map.of("big", values));
        assertThatThrownBy(() -> InputRules.checkTurn("turn.", heavy, true))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.field()).isEqualTo("turn.metadata");
                    org.assertj.core.api.Assertions.assertThat(e.rule()).isEqualTo("max-size");
                });
        assertThatCode(() -> InputRules.checkJsonObject("metadata", Map.of("a", List.of(1, "b", Map.of("c", true)))))
                .doesNotThrowAnyException();
    }

    @Test
    void timestampsStayWithinYearsOneToNineThousandNineHundredNinetyNine() {
        assertThatCode(() -> InputRules.checkTurn("", turn("q").withTimestamp(InputRules.LATEST), true))
                .doesNotThrowAnyException();
        assertThatCode(() -> InputRules.checkTurn("", turn("q").withTimestamp(InputRules.EARLIEST), true))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> InputRules.checkTurn(
                        "", turn("q").withTimestamp(Instant.parse("+10000-01-01T00:00:00Z")), true))
                .isInstanceOfSatisfying(
                        InvalidInputException.class,
                        e -> org.assertj.core.api.Assertions.assertThat(e.rule())
                                .isEqualTo("range"));
    }

    @Test
    void nullItemsAndLongWorkingMemoryKeysAreNamed() {
        TurnRecord nullTool = turn("q").withToolsUsed(Arrays.asList("a", null));
        assertThatThrownBy(() -> InputRules.checkTurn("turn.", nullTool, true))
                .isInstanceOfSatisfying(
                        InvalidInputException.class,
                        e -> org.assertj.core.api.Assertions.assertThat(e.field())
                                .isEqualTo("turn.toolsUsed[1]"));
        TurnRecord nullInvocation = turn("q").withToolInvocations(Arrays.asList((ToolInvocationRecord) null));
        assertThatThrownBy(() -> InputRules.checkTurn("turn.", nullInvocation, true))
                .isInstanceOfSatisfying(
                        InvalidInputException.class,
                        e -> org.assertj.core.api.Assertions.assertThat(e.field())
                                .isEqualTo("turn.toolInvocations[0]"));
        TurnRecord longKey = turn("q")
                .withToolInvocations(List.of(new ToolInvocationRecord(
                        "t",
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        "k".repeat(InputRules.MAX_WM_KEY_CODE_POINTS + 1))));
        assertThatThrownBy(() -> InputRules.checkTurn("turn.", longKey, true))
                .isInstanceOfSatisfying(
                        InvalidInputException.class,
                        e -> org.assertj.core.api.Assertions.assertThat(e.field())
                                .isEqualTo("turn.toolInvocations[0].wmKey"));
    }

    @Test
    void aJsonObjectMayBeBoundedBelowTheGeneralLimit() {
        Map<String, Object> twelve = Map.of("key", "123456789");
        assertThatCode(() -> InputRules.checkJsonObject("metadata", twelve, 12)).doesNotThrowAnyException();
        assertThatCode(() -> InputRules.checkJsonObject("metadata", null, 12)).doesNotThrowAnyException();
        assertThatThrownBy(() -> InputRules.checkJsonObject("metadata", twelve, 11))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.field()).isEqualTo("metadata");
                    org.assertj.core.api.Assertions.assertThat(e.rule()).isEqualTo("max-size");
                    org.assertj.core.api.Assertions.assertThat(e.getMessage()).contains("12", "11");
                });
    }
}
