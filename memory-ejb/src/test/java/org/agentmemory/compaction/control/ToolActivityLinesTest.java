package org.agentmemory.compaction.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.agentmemory.api.compaction.ContextBudget.ActivityLimit;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.junit.jupiter.api.Test;

class ToolActivityLinesTest {

    private static final ActivityLimit LIMIT = ActivityLimit.DEFAULT;

    private static ToolInvocationRecord timed(long elapsedMs, InvocationStatus status, String error) {
        return new ToolInvocationRecord(
                "search", Map.of("q", "x", "a", 1), "out", status, error, elapsedMs, null, null, null);
    }

    @Test
    void formatsNameStatusElapsedSortedInputAndBody() {
        ToolInvocationRecord invocation = timed(1234, InvocationStatus.COMPLETED, null);

        assertThat(ToolActivityLines.line(invocation, invocation.input(), "out=hello", LIMIT))
                .isEqualTo("- search ok 1.2s in={\"a\":1,\"q\":\"x\"} out=hello");
    }

    @Test
    void namesTheOmissionsOfAnInputAndAnErrorOffloadedOnWrite() {
        ToolInvocationRecord invocation = new ToolInvocationRecord(
                "sql",
                Map.of("query", "SELECT … (+90,000 chars)"),
                null,
                InvocationStatus.ERROR,
                "ORA-00942 … (+20,000 chars)",
                null,
                null,
                Map.of("input", "om_00000000000000a1", "error", "om_00000000000000e2"),
                null);

        assertThat(ToolActivityLines.line(
                        invocation, invocation.input(), ToolActivityLines.errorPart(invocation), LIMIT))
                .isEqualTo("- sql error in={\"query\":\"SELECT … (+90,000 chars)\"}"
                        + " <tool-input-omitted id=\"om_00000000000000a1\"/>"
                        + " error=ORA-00942 … (+20,000 chars) <tool-error-omitted id=\"om_00000000000000e2\"/>");
    }

    @Test
    void omitsElapsedWhenUnknownAndTheSpaceWhenTheBodyIsEmpty() {
        ToolInvocationRecord invocation = ToolInvocationRecord.of("ls", Map.of(), null);

        assertThat(ToolActivityLines.line(invocation, invocation.input(), "", LIMIT))
                .isEqualTo("- ls ok in={}");
    }

    @Test
    void elapsedSecondsRoundLikePythonHalfEvenOnTheBinaryValue() {
        assertThat(ToolActivityLines.seconds(1250)).isEqualTo("1.2");
        assertThat(ToolActivityLines.seconds(2250)).isEqualTo("2.2");
        assertThat(ToolActivityLines.seconds(1350)).isEqualTo("1.4");
        assertThat(ToolActivityLines.seconds(1050)).isEqualTo("1.1");
        assertThat(ToolActivityLines.seconds(50)).isEqualTo("0.1");
        assertThat(ToolActivityLines.seconds(0)).isEqualTo("0.0");
        assertThat(ToolActivityLines.seconds(12_345_678)).isEqualTo("12345.7");
    }

    @Test
    void statusIsErrorForTheErrorStatusOrAnyErrorText() {
        assertThat(ToolActivityLines.line(timed(10, InvocationStatus.ERROR, null), Map.of(), "", LIMIT))
                .isEqualTo("- search error 0.0s in={}");
        assertThat(ToolActivityLines.line(timed(10, InvocationStatus.COMPLETED, "boom"), Map.of(), "", LIMIT))
                .isEqualTo("- search error 0.0s in={}");
        assertThat(ToolActivityLines.line(timed(10, InvocationStatus.COMPLETED, ""), Map.of(), "", LIMIT))
                .isEqualTo("- search ok 0.0s in={}");
    }

    @Test
    void cutsTheInputAfter200CodePointsWithAnEllipsis() {
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("k", "\uD83D\uDE00".repeat(300));
        ToolInvocationRecord invocation = ToolInvocationRecord.of("t", input, null);

        String line = ToolActivityLines.line(invocation, input, "", LIMIT);

        assertThat(line).isEqualTo("- t ok in={\"k\":\"" + "\uD83D\uDE00".repeat(194) + "\u2026");
    }

    @Test
    void keepsAnInputOfExactly200CodePoints() {
        Map<String, Object> input = Map.of("k", "x".repeat(192));
        ToolInvocationRecord invocation = ToolInvocationRecord.of("t", input, null);

        assertThat(ToolActivityLines.line(invocation, input, "", LIMIT))
                .endsWith("x\"}")
                .doesNotContain("\u2026");
    }
}
