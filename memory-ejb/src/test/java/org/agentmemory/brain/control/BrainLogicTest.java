package org.agentmemory.brain.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BrainLogicTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant T1 = Instant.parse("2026-12-02T10:00:00Z");

    @Test
    void pageIdsAreTheReferencesSha1OfTitleAndCategory() {
        assertThat(PageIds.pageId("Tool Execution pattern", "lesson")).isEqualTo("mem-ceffbe235b9b");
        assertThat(PageIds.title(null, "  First line\nsecond line")).isEqualTo("First line");
        assertThat(PageIds.title("  Given  ", "ignored")).isEqualTo("Given");
        assertThat(PageIds.title("", "x".repeat(100))).hasSize(80);
    }

    @Test
    void aBodySplitsIntoDistinctStatements() {
        assertThat(Statements.split(
                        "- Run migrations off-peak.\n* run MIGRATIONS off-peak\n\n1. Check locks first\nplain"))
                .containsExactly("Run migrations off-peak.", "Check locks first", "plain");
        assertThat(Statements.split(null)).isEmpty();
        assertThat(Statements.split("- ---\n- ...")).isEmpty();
    }

    @Test
    void newKnowledgeIsMergedNotOverwritten() {
        Statements.Merge first =
                Statements.merge(List.of(), "- Run migrations off-peak\n- Check locks first", Set.of("episode:a"), T0);
        assertThat(first.added()).isEqualTo(2);

        Statements.Merge again = Statements.merge(
                first.statements(), "- run migrations OFF-PEAK.\n- Page the DBA", Set.of("episode:b"), T1);
        assertThat(again.added()).isEqualTo(1);
        assertThat(again.reinforced()).isEqualTo(1);
        assertThat(again.statements()).hasSize(3);
        assertThat(again.statements().get(0).evidence()).containsExactly("episode:a", "episode:b");
        assertThat(again.statements().get(0).assertedAt()).isEqualTo(T0);

        Statements.Merge same = Statements.merge(again.statements(), "- Page the DBA", Set.of("episode:b"), T1);
        assertThat(same.changed()).as("the same evidence again changes nothing").isFalse();
    }

    @Test
    void aContradictionSupersedesTheOlderStatementWhichStaysAsHistory() {
        List<Statement> page = Statements.merge(List.of(), "- Deploy on Friday evenings", Set.of("episode:a"), T0)
                .statements();
        Statements.Merge contradicted =
                Statements.merge(page, "- Never deploy on Friday evenings", Set.of("episode:z", "turn:7/t3"), T1);
        assertThat(contradicted.superseded()).isEqualTo(1);
        assertThat(contradicted.added()).isEqualTo(1);
        Statement old = contradicted.statements().get(0);
        assertThat(old.current()).isFalse();
        assertThat(old.supersededAt()).isEqualTo(T1);
        assertThat(old.supersededBy()).containsExactly("episode:z", "turn:7/t3");

        assertThat(Statements.shown(contradicted.statements(), null))
                .extracting(Statement::text)
                .containsExactly("Never deploy on Friday evenings");
        assertThat(Statements.shown(contradicted.statements(), T0.plusSeconds(60)))
                .extracting(Statement::text)
                .containsExactly("Deploy on Friday evenings");
        assertThat(Statements.shown(contradicted.statements(), T0.minusSeconds(60)))
                .isEmpty();
        assertThat(Statements.body(Statements.shown(contradicted.statements(), null)))
                .isEqualTo("- Never deploy on Friday evenings");
        assertThat(Statements.negative("Don't do it")).isTrue();
        assertThat(Statements.negative("Do not never do it")).isFalse();
    }

    @Test
    void searchResultsArePackedAsStubLinesWithinTheBudget() {
        List<KnowledgePacking.Hit> hits = List.of(
                new KnowledgePacking.Hit("mem-1", "Deploys", "Run migrations off-peak. Then deploy.", 3.14159, 120),
                new KnowledgePacking.Hit("mem-1", "Duplicate", "skipped", 2, 10),
                new KnowledgePacking.Hit("mem-2", "mem-2", "---", 1.5, 40),
                new KnowledgePacking.Hit("mem-3", "Third", "x".repeat(300) + ". y", 1, 5));
        String all = KnowledgePacking.pack(hits, 10_000, String::length);
        assertThat(all.split("\n"))
                .containsExactly(
                        "- [mem-1] Deploys — Run migrations off-peak. (score=3.14, ~120tok)",
                        "- [mem-2] (score=1.50, ~40tok)",
                        "- [mem-3] Third — " + "x".repeat(239) + "… (score=1.00, ~5tok)");
        String first = "- [mem-1] Deploys — Run migrations off-peak. (score=3.14, ~120tok)";
        assertThat(KnowledgePacking.pack(hits, 1, String::length))
                .as("the first line always")
                .isEqualTo(first);
        assertThat(KnowledgePacking.pack(hits, first.length() + 5, String::length))
                .isEqualTo(first);
        assertThat(KnowledgePacking.pack(List.of(), 600, String::length)).isEmpty();
        assertThat(KnowledgePacking.pack(null, 600, String::length)).isEmpty();
    }

    @Test
    void similarEpisodesGroupByTheirFirstMemberAndTheRestByCategoryAndTools() {
        DreamEpisode a = episode("a", new float[] {1, 0}, "tool_execution", List.of("kubectl"));
        DreamEpisode b = episode("b", new float[] {0.9f, 0.1f}, "tool_execution", List.of("kubectl"));
        DreamEpisode c = episode("c", new float[] {0, 1}, "tool_execution", List.of("kubectl"));
        DreamEpisode d = episode("d", null, "decision", List.of("b", "a"));
        DreamEpisode e = episode("e", null, "decision", List.of("a", "b"));
        DreamEpisode f = episode("f", null, "decision", List.of());
        assertThat(EpisodeClusters.group(List.of(a, b, c, d, e, f), EpisodeClusters.DEFAULT_SIMILARITY))
                .extracting(g -> g.stream().map(DreamEpisode::episodeId).toList())
                .containsExactly(List.of("a", "b"), List.of("c"), List.of("d", "e"), List.of("f"));
    }

    @Test
    void theHeuristicDistillerUsesLessonsElseSituationsAndNamesTheTool() {
        DreamEpisode withLesson = new DreamEpisode(
                "a", T0, "tool_execution", List.of("kubectl"), "pods crashed", "restarted", "Check quotas first", null);
        DreamEpisode without = new DreamEpisode(
                "b", T1, "tool_execution", List.of("kubectl"), "rollout stuck", "rolled back", null, null);
        Distilled lessons = HeuristicDistiller.distill(List.of(withLesson, without));
        assertThat(lessons.title()).isEqualTo("Tool Execution pattern: kubectl");
        assertThat(lessons.body()).isEqualTo("- Check quotas first");
        assertThat(lessons.category()).isEqualTo("lesson");
        assertThat(lessons.confidence()).isEqualTo(0.5);

        Distilled notes = HeuristicDistiller.distill(List.of(without));
        assertThat(notes.body()).isEqualTo("- rollout stuck: rolled back");
        assertThat(notes.category()).isEqualTo("note");
    }

    @Test
    void lowConfidenceOrUnknownCategoriesBecomeNotes() {
        assertThat(Distilled.of("t", "b", "lesson", 0.29).category()).isEqualTo("note");
        assertThat(Distilled.of("t", "b", "LESSON", 0.3).category()).isEqualTo("lesson");
        assertThat(Distilled.of("t", "b", "rumour", 0.9).category()).isEqualTo("note");
        assertThat(Distilled.of("t", "b", "lesson", 7).confidence()).isEqualTo(1.0);
        assertThat(Distilled.of(null, "x".repeat(5000), "note", 0.5).body()).hasSize(Distilled.MAX_BODY);
    }

    @Test
    void theWatermarkStopsBeforeThePendingAndNeverMovesBack() {
        Instant e1 = T0;
        Instant e2 = T0.plusSeconds(10);
        Instant e3 = T0.plusSeconds(20);
        assertThat(Watermarks.next(null, List.of(e1, e3), List.of())).isEqualTo(e3);
        assertThat(Watermarks.next(null, List.of(e1, e3), List.of(e2))).isEqualTo(e2.minusNanos(1000));
        assertThat(Watermarks.next(null, List.of(e1), List.of(e3)))
                .as("pending after: not held back")
                .isEqualTo(e1);
        assertThat(Watermarks.next(e1, List.of(), List.of(e2)))
                .as("nothing consolidated")
                .isEqualTo(e1);
        assertThat(Watermarks.next(e3, List.of(e1), List.of())).isEqualTo(e3);
    }

    private static DreamEpisode episode(String id, float[] vector, String category, List<String> tools) {
        return new DreamEpisode(id, T0, category, tools, "situation " + id, "action " + id, null, vector);
    }
}
