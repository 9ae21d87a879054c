package org.agentmemory.working.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.working.ContextFrame;
import org.agentmemory.api.working.MemoryTier;
import org.agentmemory.api.working.WorkingItem;
import org.agentmemory.api.working.WorkingSummary;
import org.junit.jupiter.api.Test;

/** Seed 003's {@code get_context_summary}: 3 frames, 5 recent, 3 important (≥ 0.8), lines of 100 code points. */
class ContextSummariesTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static WorkingItem item(long id, String content, MemoryTier tier, double importance) {
        Instant at = T0.plusSeconds(id);
        return new WorkingItem(id, content, Map.of(), importance, 0, tier, null, at, at, null, null);
    }

    private static ContextFrame frame(String type, String name) {
        return new ContextFrame(type, Map.of("name", name), T0);
    }

    @Test
    void anEmptySessionHasNoContext() {
        WorkingSummary summary = ContextSummaries.compose(List.of(), List.of(), List.of());
        assertThat(summary.text()).isEqualTo("No context available.");
        assertThat(summary.context()).isEmpty();
        assertThat(summary.recent()).isEmpty();
        assertThat(summary.important()).isEmpty();
    }

    @Test
    void showsTheTopThreeFramesTheFiveNewestShortTermItemsAndTheThreeMostImportant() {
        List<ContextFrame> stack = List.of(
                frame("conversation", "c1"), frame("task", "t1"), frame("task", "t2"), frame("tool_use", "grep"));
        List<WorkingItem> recent = new ArrayList<>();
        for (long id = 7; id >= 1; id--) {
            recent.add(item(id, "note " + id, MemoryTier.SHORT_TERM, 0.5));
        }
        List<WorkingItem> important = List.of(
                item(20, "plain", MemoryTier.LONG_TERM, 0.79),
                item(21, "key fact", MemoryTier.LONG_TERM, 0.8),
                item(22, "critical", MemoryTier.LONG_TERM, 1.0),
                item(23, "newer key fact", MemoryTier.LONG_TERM, 0.8),
                item(24, "older critical", MemoryTier.LONG_TERM, 0.95));

        WorkingSummary summary = ContextSummaries.compose(stack, recent, important);

        assertThat(summary.context()).extracting(ContextFrame::type).containsExactly("task", "task", "tool_use");
        assertThat(summary.recent()).extracting(WorkingItem::itemId).containsExactly(7L, 6L, 5L, 4L, 3L);
        assertThat(summary.important())
                .extracting(WorkingItem::content)
                .containsExactly("critical", "older critical", "newer key fact");
        assertThat(summary.text()).isEqualTo("""
                        Current context:
                          - task: {"name":"t1"}
                          - task: {"name":"t2"}
                          - tool_use: {"name":"grep"}

                        Recent activity:
                          - note 7
                          - note 6
                          - note 5
                          - note 4
                          - note 3

                        Important memories:
                          - critical
                          - older critical
                          - newer key fact""");
    }

    @Test
    void anItemStoredStraightToLongTermCountsByItsOwnImportance() {
        // The seed reads importance from metadata, which such an item lacks, and so never shows it.
        WorkingSummary summary = ContextSummaries.compose(
                List.of(), List.of(), List.of(item(1, "stored long-term at 0.9", MemoryTier.LONG_TERM, 0.9)));
        assertThat(summary.text()).isEqualTo("Important memories:\n  - stored long-term at 0.9");
    }

    @Test
    void itemsOfTheOtherTierAreNotShownInASection() {
        WorkingSummary summary = ContextSummaries.compose(
                List.of(),
                List.of(item(1, "long", MemoryTier.LONG_TERM, 0.9)),
                List.of(item(2, "short", MemoryTier.SHORT_TERM, 0.9)));
        assertThat(summary.text()).isEqualTo("No context available.");
    }

    @Test
    void linesAreCutToOneHundredCodePoints() {
        String emoji = "😀".repeat(150);
        WorkingSummary summary =
                ContextSummaries.compose(List.of(), List.of(item(1, emoji, MemoryTier.SHORT_TERM, 0.5)), List.of());
        String line = summary.text().substring("Recent activity:\n  - ".length());
        assertThat(line.codePointCount(0, line.length())).isEqualTo(100);
        assertThat(summary.recent().get(0).content()).isEqualTo(emoji);
    }
}
