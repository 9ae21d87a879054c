package org.agentmemory.compaction.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.junit.jupiter.api.Test;

class SummaryTextTest {

    private static final TokenCounter COUNTER = TokenCounters.defaultCounter();

    private static List<String> lines(int count) {
        List<String> lines = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            lines.add("- line " + i + " about the invoice of customer " + i);
        }
        return lines;
    }

    @Test
    void linesAreTheNonBlankStrippedLines() {
        assertThat(SummaryText.lines(" a \n\n b\r\nc ")).containsExactly("a", "b", "c");
        assertThat(SummaryText.lines(null)).isEmpty();
        assertThat(SummaryText.lines("  ")).isEmpty();
    }

    @Test
    void aSummaryWithinItsBoundIsUnchanged() {
        List<String> lines = lines(3);

        assertThat(SummaryText.bound(lines, 1_000, COUNTER)).isEqualTo(String.join("\n", lines));
    }

    @Test
    void boundingKeepsTheNewestPlainLinesAndEveryDecisionThatFits() {
        List<String> lines = lines(40);
        lines.set(1, "- " + SummaryText.DECISION + " keep the old invoice format");

        String bounded = SummaryText.bound(lines, 60, COUNTER);

        assertThat(COUNTER.count(bounded)).isLessThanOrEqualTo(60);
        List<String> kept = SummaryText.lines(bounded);
        assertThat(kept.get(0)).isEqualTo(lines.get(1));
        assertThat(kept.get(kept.size() - 1)).isEqualTo(lines.get(39));
        assertThat(lines.subList(40 - (kept.size() - 1), 40)).isEqualTo(kept.subList(1, kept.size()));
    }

    @Test
    void aSingleLineOverTheBoundIsCutWithAnEllipsis() {
        String line = "- " + "the quick brown fox ".repeat(50).strip();

        String bounded = SummaryText.bound(List.of(line), 20, COUNTER);

        assertThat(COUNTER.count(bounded)).isLessThanOrEqualTo(20);
        assertThat(bounded).endsWith("\u2026");
        assertThat(line).startsWith(bounded.substring(0, bounded.length() - 1));
    }

    @Test
    void newestKeepsTheNewestWholeLinesThatFit() {
        String text = String.join("\n", lines(10));
        int lastTwo = COUNTER.count(String.join("\n", lines(10).subList(8, 10)));

        assertThat(SummaryText.newest(text, 10_000, COUNTER)).isEqualTo(text);
        assertThat(SummaryText.newest(text, lastTwo, COUNTER))
                .isEqualTo(String.join("\n", lines(10).subList(8, 10)));
        assertThat(SummaryText.newest(text, 1, COUNTER)).isEmpty();
    }

    @Test
    void theBlockIsMarkedAndEscapesItsAttributes() {
        assertThat(SummaryText.block(2, "t\"1", "t<2>", "- a\n- b"))
                .isEqualTo("<earlier-turns-summary turns=\"2\" first=\"t&quot;1\" last=\"t&lt;2&gt;\">\n"
                        + "Summary of 2 earlier turns, not shown verbatim (oldest first):\n- a\n- b\n"
                        + "</earlier-turns-summary>");
        assertThat(SummaryText.block(1, "t1", "t1", "- a")).contains("Summary of 1 earlier turn, not");
    }
}
