package org.agentmemory.compaction.control;

import static org.agentmemory.compaction.control.Turns.offloaded;
import static org.agentmemory.compaction.control.Turns.tool;
import static org.agentmemory.compaction.control.Turns.turn;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agentmemory.api.compaction.ContextBudget.ActivityLimit;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.omission.control.ContentIds;
import org.junit.jupiter.api.Test;

class ToolActivitySuffixTest {

    private static final PrunePolicies POLICIES = PrunePolicies.builtIn();

    private static ToolActivitySuffix raw(TurnRecord turn, ActivityLimit limit, Set<Integer> oversize) {
        return ToolActivitySuffix.raw(turn, limit, oversize, POLICIES, null, WordCounter.INSTANCE);
    }

    private static TurnRecord withTools(int count) {
        List<ToolInvocationRecord> invocations = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            invocations.add(tool("t", Map.of(), "o" + i));
        }
        return turn("turn-1", "q", "a").withToolInvocations(invocations);
    }

    @Test
    void aTurnWithoutInvocationsHasNoSuffix() {
        TurnRecord plain = turn("turn-1", "q", "a");

        assertThat(raw(plain, ActivityLimit.DEFAULT, Set.of())).isEqualTo(ToolActivitySuffix.NONE);
        assertThat(ToolActivitySuffix.pruned(plain, ActivityLimit.DEFAULT, POLICIES, null)
                        .text())
                .isEmpty();
    }

    @Test
    void rawShowsOutputCutAt400CodePointsWithTheCountAndTheFullError() {
        ToolInvocationRecord invocation = new ToolInvocationRecord(
                "read",
                Map.of("p", "x"),
                "y".repeat(1500),
                InvocationStatus.ERROR,
                "E".repeat(900),
                2500L,
                null,
                null,
                null);

        ToolActivitySuffix suffix = raw(turn("turn-1", "q", "a", invocation), ActivityLimit.DEFAULT, Set.of());

        assertThat(suffix.text())
                .isEqualTo("\n\n<tool-activity>\n- read error 2.5s in={\"p\":\"x\"} out=" + "y".repeat(400)
                        + " \u2026(+1,100 chars) error=" + "E".repeat(900) + "\n</tool-activity>");
        assertThat(suffix.omissions()).isEmpty();
    }

    @Test
    void rawConsidersTwelveInvocationsAndCountsTheRest() {
        ToolActivitySuffix suffix = raw(withTools(15), ActivityLimit.DEFAULT, Set.of());

        assertThat(suffix.text().lines().filter(line -> line.startsWith("- t ok")))
                .hasSize(12);
        assertThat(suffix.text())
                .contains("- t ok in={} out=o11\n\u2026 +3 more\n</tool-activity>")
                .doesNotContain("out=o12");
    }

    @Test
    void blockCapPopsLinesFromTheEndAndCountsThem() {
        // Each line "- t ok in={} out=oN" is 5 words; four lines are 20 > 10.
        ToolActivitySuffix suffix = raw(withTools(4), new ActivityLimit(12, 200, 400, 10), Set.of());

        assertThat(suffix.text())
                .isEqualTo(
                        "\n\n<tool-activity>\n- t ok in={} out=o0\n- t ok in={} out=o1\n\u2026 +2 more\n</tool-activity>");
    }

    @Test
    void blockCapCountsAPoppedMoreLineAmongTheDropped() {
        // 12 lines × 5 words + "… +3 more" (3 words) = 63 > 58: the more-line and one invocation line go.
        ToolActivitySuffix suffix = raw(withTools(15), new ActivityLimit(12, 200, 400, 58), Set.of());

        assertThat(suffix.text())
                .endsWith("- t ok in={} out=o10\n\u2026 +2 more\n</tool-activity>")
                .doesNotContain("out=o11");
    }

    @Test
    void blockCapCanPopEveryLine() {
        ToolActivitySuffix suffix = raw(withTools(2), new ActivityLimit(12, 200, 400, 0), Set.of());

        assertThat(suffix.text()).isEqualTo("\n\n<tool-activity>\n\u2026 +2 more\n</tool-activity>");
    }

    @Test
    void rawRendersOversizeAndOffloadedOutputsThroughTheirPolicy() {
        TurnRecord turn = turn(
                "turn-1",
                "q",
                "a",
                tool("bash", Map.of("command", "make", "env", "x"), "{\"exit_code\":0,\"log\":\"long\"}"),
                offloaded("read_file", Map.of("path", "big.txt"), "prev", 50_000, "om_0123456789abcdef", null),
                tool("t", Map.of(), "small"));

        ToolActivitySuffix suffix = raw(turn, ActivityLimit.DEFAULT, Set.of(0));
        String bashId = ContentIds.contentId("{\"exit_code\":0,\"log\":\"long\"}");

        assertThat(suffix.text())
                .isEqualTo("\n\n<tool-activity>\n"
                        + "- bash ok in={\"command\":\"make\"} <tool-output-omitted tool=\"bash\" chars=\"28\" id=\""
                        + bashId + "\"/> exit=0\n"
                        + "- read_file ok in={\"path\":\"big.txt\"} <tool-output-omitted tool=\"read_file\" chars=\"50000\" id=\"om_0123456789abcdef\"/>\n"
                        + "- t ok in={} out=small\n</tool-activity>");
        assertThat(suffix.omissions()).extracting(PendingOmission::contentId).containsExactly(bashId);
    }

    @Test
    void prunedGivesEveryInvocationALineAndTheRecoveryHint() {
        ToolActivitySuffix suffix = ToolActivitySuffix.pruned(withTools(15), ActivityLimit.DEFAULT, POLICIES, null);

        assertThat(suffix.text().lines().filter(line -> line.startsWith("- t ok in={} <tool-output-omitted")))
                .hasSize(15);
        assertThat(suffix.text())
                .endsWith("</tool-activity>\nOmitted content can be recovered with "
                        + "read_omitted_content(content_id) or read_omitted_content(turn_id=\"turn-1\").");
        assertThat(suffix.omissions()).hasSize(15);
    }

    @Test
    void prunedWithoutAnyNoticeHasNoHintEvenIfAnInputMentionsTheTag() {
        TurnRecord turn = turn("turn-1", "q", "a", Turns.failed("t", Map.of("q", "<tool-output-omitted"), "bad"));

        ToolActivitySuffix suffix = ToolActivitySuffix.pruned(turn, ActivityLimit.DEFAULT, POLICIES, null);

        assertThat(suffix.text())
                .isEqualTo(
                        "\n\n<tool-activity>\n- t error in={\"q\":\"<tool-output-omitted\"} error=bad\n</tool-activity>");
    }
}
