package org.agentmemory.brain.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.agentmemory.api.brain.DreamCycleReport;
import org.agentmemory.api.brain.PageWriteResult;
import org.junit.jupiter.api.Test;

/**
 * The dream cycle's orchestration (spec §12.2) over in-memory ports that behave like the database: the collection
 * skips consolidated episodes, pages merge statements as {@code BrainPageWriterBean} does, reinforcement counts once
 * per cycle.
 */
class DreamCycleTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
    private static final DreamCycle.Limits LIMITS = new DreamCycle.Limits(5_000, 0.75, 20, 3);
    private static final String[] THEMES = {"kubectl", "psql", "curl", "git", "terraform"};

    /** An in-memory store and brain. */
    static class World implements DreamCycle.Ports {
        final List<DreamEpisode> episodes = new ArrayList<>();
        final Map<String, String> consolidated = new HashMap<>();
        final Map<String, List<Statement>> pages = new LinkedHashMap<>();
        final Map<String, Integer> cycles = new HashMap<>();
        final Map<String, Long> lastCycle = new HashMap<>();
        final Set<String> promoted = new LinkedHashSet<>();
        final Map<String, List<Statement>> org = new LinkedHashMap<>();
        long cycle;
        Predicate<String> failMark = id -> false;
        Predicate<List<DreamEpisode>> failDistill = g -> false;
        int collectCalls;

        @Override
        public List<DreamEpisode> collect(Instant since, int limit) {
            collectCalls++;
            return episodes.stream()
                    .filter(e -> !consolidated.containsKey(e.episodeId()))
                    .filter(e -> since == null || !e.createdAt().isBefore(since))
                    .sorted((a, b) -> a.createdAt().compareTo(b.createdAt()))
                    .limit(limit)
                    .toList();
        }

        @Override
        public DreamCycle.Distillation distill(List<DreamEpisode> group) {
            if (failDistill.test(group)) {
                throw new IllegalStateException("model down and no fallback");
            }
            return DreamCycle.heuristic(group);
        }

        @Override
        public PageWriteResult archive(DreamCycle.Distillation d) {
            return write(pages, d.knowledge(), d.evidenceByStatement());
        }

        static PageWriteResult write(
                Map<String, List<Statement>> brain, Distilled k, Map<String, Set<String>> evidence) {
            String id = PageIds.pageId(k.title(), k.category());
            boolean created = !brain.containsKey(id);
            List<Statement> statements = brain.getOrDefault(id, List.of());
            int added = 0;
            int reinforced = 0;
            for (String text : Statements.split(k.body())) {
                Statements.Merge m =
                        Statements.merge(statements, text, evidence.getOrDefault(text, Set.of()), CLOCK.instant());
                statements = m.statements();
                added += m.added();
                reinforced += m.reinforced();
            }
            brain.put(id, statements);
            String status = created ? "created" : added + reinforced > 0 ? "updated" : "unchanged";
            return new PageWriteResult(id, k.title(), k.category(), status, added, reinforced, 0);
        }

        @Override
        public int reinforce(String pageId) {
            if (!Long.valueOf(cycle).equals(lastCycle.put(pageId, cycle))) {
                cycles.merge(pageId, 1, Integer::sum);
            }
            return cycles.get(pageId);
        }

        @Override
        public void mark(List<String> episodeIds, String pageId) {
            if (failMark.test(pageId)) {
                throw new IllegalStateException("crash between archive and mark");
            }
            episodeIds.forEach(id -> consolidated.put(id, pageId));
        }

        @Override
        public boolean promote(String pageId) {
            Map<String, Set<String>> evidence = new LinkedHashMap<>();
            List<Statement> current = Statements.shown(pages.get(pageId), null);
            current.forEach(s -> evidence.put(s.text(), s.evidence()));
            org.put(pageId, new ArrayList<>(current));
            return promoted.add(pageId);
        }

        DreamCycleReport run(Instant watermark) {
            cycle++;
            return DreamCycle.run(watermark, LIMITS, this, CLOCK);
        }
    }

    /** 60 episodes, 5 themes of 12, each theme with 3 distinct lessons said 4 times, interleaved in time. */
    static World sixtyEpisodes() {
        World w = new World();
        Random random = new Random(7);
        for (int i = 0; i < 60; i++) {
            int theme = i % 5;
            w.episodes.add(new DreamEpisode(
                    "ep-" + i,
                    T0.plusSeconds(60L * i),
                    "tool_execution",
                    List.of(THEMES[theme]),
                    "ran " + THEMES[theme] + " " + i,
                    "retried",
                    "With " + THEMES[theme] + " check lesson " + (i / 5) % 3,
                    vector(theme, random),
                    i % 2 == 0 ? List.of("turn:conv-" + i + "/1") : List.of()));
        }
        return w;
    }

    /** A unit vector of 16 dimensions: axis {@code theme} plus Gaussian noise of σ 0.05 per component. */
    static float[] vector(int theme, Random random) {
        float[] v = new float[16];
        for (int d = 0; d < v.length; d++) {
            v[d] = (float) (random.nextGaussian() * 0.05);
        }
        v[theme] += 1f;
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        for (int d = 0; d < v.length; d++) {
            v[d] /= (float) Math.sqrt(norm);
        }
        return v;
    }

    @Test
    void sixtyEpisodesInFiveThemesGiveFivePagesWithEvidenceMarksAndWatermark() {
        World w = sixtyEpisodes();

        DreamCycleReport r = w.run(null);

        assertThat(r.aborted()).isFalse();
        assertThat(r.episodesCollected()).isEqualTo(60);
        assertThat(r.groupsFormed()).isEqualTo(5);
        assertThat(r.groupsDistilled()).isEqualTo(5);
        assertThat(r.episodesConsolidated()).isEqualTo(60);
        assertThat(r.pagesCreated()).hasSize(5);
        assertThat(r.statementsAdded()).isEqualTo(15);
        assertThat(w.consolidated).hasSize(60);
        assertThat(r.watermarkAfter()).isEqualTo(T0.plusSeconds(60L * 59));
        String kubectl = PageIds.pageId("Tool Execution pattern: kubectl", "lesson");
        assertThat(w.pages).containsKey(kubectl);
        List<Statement> statements = w.pages.get(kubectl);
        assertThat(statements)
                .extracting(Statement::text)
                .containsExactly(
                        "With kubectl check lesson 0", "With kubectl check lesson 1", "With kubectl check lesson 2");
        // lesson 0 of kubectl (theme 0) comes from episodes 0, 15, 30, 45: each statement has its own evidence
        assertThat(statements.get(0).evidence())
                .containsExactlyInAnyOrder(
                        "episode:ep-0",
                        "turn:conv-0/1",
                        "episode:ep-15",
                        "episode:ep-30",
                        "turn:conv-30/1",
                        "episode:ep-45");
        assertThat(w.cycles.values()).containsOnly(1);
        assertThat(w.consolidated.get("ep-0")).isEqualTo(kubectl);

        DreamCycleReport again = w.run(r.watermarkAfter());
        assertThat(again.episodesCollected()).isZero();
        assertThat(again.pagesCreated()).isEmpty();
        assertThat(again.watermarkAfter()).isEqualTo(r.watermarkAfter());
        assertThat(again.aborted()).isFalse();
    }

    @Test
    void aCrashBetweenArchiveAndMarkLeavesNoDuplicateOnReRun() {
        World w = sixtyEpisodes();
        String psql = PageIds.pageId("Tool Execution pattern: psql", "lesson");
        w.failMark = psql::equals;

        DreamCycleReport crashed = w.run(null);

        assertThat(crashed.aborted()).isTrue();
        assertThat(crashed.abortReason()).startsWith("mark failed");
        assertThat(crashed.watermarkAfter()).isNull();
        assertThat(w.pages).containsKey(psql);
        int statementsBefore = w.pages.get(psql).size();

        w.failMark = id -> false;
        DreamCycleReport rerun = w.run(crashed.watermarkAfter());

        assertThat(rerun.aborted()).isFalse();
        assertThat(w.consolidated).hasSize(60);
        assertThat(w.pages).hasSize(5);
        assertThat(w.pages.get(psql)).hasSize(statementsBefore).hasSize(3);
        assertThat(w.pages.values())
                .allSatisfy(s -> assertThat(s).extracting(Statement::text).doesNotHaveDuplicates());
    }

    @Test
    void pagesArePromotedOnlyAfterNDistinctCycles() {
        World w = sixtyEpisodes();
        Instant watermark = null;
        List<List<String>> promotedPerCycle = new ArrayList<>();
        Random random = new Random(11);
        for (int c = 0; c < 4; c++) {
            if (c > 0) { // new kubectl experience each cycle
                w.episodes.add(new DreamEpisode(
                        "new-" + c,
                        T0.plusSeconds(86_400L * c),
                        "tool_execution",
                        List.of("kubectl"),
                        "ran kubectl",
                        "retried",
                        "With kubectl check lesson " + (c + 5),
                        vector(0, random)));
            }
            DreamCycleReport r = w.run(watermark);
            watermark = r.watermarkAfter();
            promotedPerCycle.add(r.pagesPromoted());
        }
        String kubectl = PageIds.pageId("Tool Execution pattern: kubectl", "lesson");
        assertThat(promotedPerCycle.get(0)).isEmpty();
        assertThat(promotedPerCycle.get(1)).isEmpty();
        assertThat(promotedPerCycle.get(2)).containsExactly(kubectl);
        assertThat(promotedPerCycle.get(3)).isEmpty(); // copied again (merged), but promoted once
        assertThat(w.cycles.get(kubectl)).isEqualTo(4);
        assertThat(w.org.get(kubectl)).extracting(Statement::text).contains("With kubectl check lesson 8");
        assertThat(w.cycles.get(PageIds.pageId("Tool Execution pattern: psql", "lesson")))
                .isEqualTo(1);
    }

    @Test
    void groupsBeyondTheCapAreDeferredAndTheWatermarkStaysBeforeThem() {
        World w = new World();
        Random random = new Random(3);
        for (int i = 0; i < 25; i++) { // 25 themes: orthogonal axes of 32 dimensions
            float[] v = new float[32];
            v[i] = 1f;
            w.episodes.add(new DreamEpisode(
                    "ep-" + i, T0.plusSeconds(i), "tool_execution", List.of("tool" + i), "s", "a", "lesson " + i, v));
        }
        DreamCycleReport r = w.run(null);

        assertThat(r.groupsFormed()).isEqualTo(25);
        assertThat(r.groupsDistilled()).isEqualTo(20);
        assertThat(r.groupsDeferred()).isEqualTo(5);
        assertThat(r.watermarkAfter()).isEqualTo(T0.plusSeconds(19)); // newest consolidated; pending are newer
        DreamCycleReport next = w.run(r.watermarkAfter());
        assertThat(next.groupsDistilled()).isEqualTo(5);
        assertThat(w.consolidated).hasSize(25);
        assertThat(random).isNotNull();
    }

    @Test
    void aSkippedGroupStaysPendingAndHoldsTheWatermarkBack() {
        World w = sixtyEpisodes();
        w.failDistill = g -> g.get(0).relatedTools().contains("psql");

        DreamCycleReport r = w.run(null);

        assertThat(r.aborted()).isFalse();
        assertThat(r.groupsSkipped()).isEqualTo(1);
        assertThat(r.episodesConsolidated()).isEqualTo(48);
        // ep-1 (psql, the oldest pending) was created at T0 + 60 s
        assertThat(r.watermarkAfter()).isEqualTo(T0.plusSeconds(60).minusNanos(1_000));
        w.failDistill = g -> false;
        assertThat(w.run(r.watermarkAfter()).episodesConsolidated()).isEqualTo(12);
    }

    @Test
    void aLargeBacklogIsConsolidatedOldestFirstOverSuccessiveCycles() {
        World w = new World();
        for (int i = 0; i < 12_000; i++) {
            w.episodes.add(new DreamEpisode(
                    "ep-" + i,
                    T0.plusMillis(i),
                    "tool_execution",
                    List.of("t" + i % 3),
                    "s",
                    "a",
                    "lesson " + i % 7,
                    null));
        }
        Instant watermark = null;
        List<Integer> perCycle = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            DreamCycleReport r = w.run(watermark);
            watermark = r.watermarkAfter();
            perCycle.add(r.episodesConsolidated());
        }
        assertThat(perCycle).containsExactly(5_000, 5_000, 2_000, 0);
        assertThat(w.consolidated).hasSize(12_000);
        assertThat(w.pages).hasSize(3); // grouped by (category, tools) without vectors
    }

    @Test
    void emptyInputsFinishWithZeroChanges() {
        World w = new World();
        DreamCycleReport r = w.run(null);
        assertThat(r.aborted()).isFalse();
        assertThat(r.episodesCollected()).isZero();
        assertThat(r.groupsFormed()).isZero();
        assertThat(r.pagesCreated()).isEmpty();
        assertThat(r.watermarkAfter()).isNull();
        assertThat(w.pages).isEmpty();
    }

    @Test
    void aFailedArchiveAbortsWithoutMovingTheWatermark() {
        World w = new World() {
            @Override
            public PageWriteResult archive(DreamCycle.Distillation d) {
                throw new IllegalStateException("database down");
            }
        };
        w.episodes.addAll(sixtyEpisodes().episodes);
        DreamCycleReport r = w.run(T0.minusSeconds(1));
        assertThat(r.aborted()).isTrue();
        assertThat(r.abortReason()).contains("archive failed").contains("database down");
        assertThat(r.watermarkAfter()).isEqualTo(T0.minusSeconds(1));
        assertThat(w.consolidated).isEmpty();
    }
}
