package org.agentmemory.episodic.control;

import static org.agentmemory.episodic.control.Episodes.T0;
import static org.agentmemory.episodic.control.Episodes.failure;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.junit.jupiter.api.Test;

class FailureWarningsTest {

    @Test
    void mergesSortsAndFormatsBothSections() {
        Episode a = failure(
                "a",
                7,
                T0,
                "Fetching the monthly report",
                "Pace report fetches",
                null,
                "Wait between fetches.",
                List.of("fetch", "retry"));
        Episode b = failure(
                "b",
                9,
                T0.minusSeconds(60),
                "Deleting a user",
                null,
                "Permission denied for role viewer",
                null,
                List.of());
        Episode c = failure(
                "c",
                7,
                T0.plusSeconds(60),
                "Exporting CSV",
                "Stream large exports",
                null,
                "Use the streaming endpoint.",
                List.of("export"));

        String text = FailureWarnings.format(List.of(a, b), List.of(b, c), 5);

        assertThat(text).isEqualTo("""
                MISTAKES TO AVOID:
                - Deleting a user \u2014 Permission denied for role viewer
                - Exporting CSV (tool: export) \u2014 Stream large exports
                - Fetching the monthly report (tool: fetch, retry) \u2014 Pace report fetches
                SUGGESTED APPROACHES:
                - Use the streaming endpoint.
                - Wait between fetches.""");
    }

    @Test
    void takesOnlyTheMostImportantAndKeepsTheFirstCopyOfAnId() {
        Episode semanticCopy = failure("x", 8, T0, "semantic copy", "first", null, null, List.of());
        Episode recentCopy = failure("x", 8, T0, "recent copy", "second", null, null, List.of());
        Episode low = failure("y", 2, T0, "low", "low lesson", null, null, List.of());
        assertThat(FailureWarnings.format(List.of(semanticCopy), List.of(recentCopy, low), 1))
                .isEqualTo("MISTAKES TO AVOID:\n- semantic copy \u2014 first");
    }

    @Test
    void equalKeysKeepTheMergedOrder() {
        Episode first = failure("1", 5, T0, "first", "l1", null, null, List.of());
        Episode second = failure("2", 5, T0, "second", "l2", null, null, List.of());
        assertThat(FailureWarnings.format(List.of(first), List.of(second), 5))
                .isEqualTo("MISTAKES TO AVOID:\n- first \u2014 l1\n- second \u2014 l2");
    }

    @Test
    void cutsSituationAndErrorToHundredCodePointsButNotTheLesson() {
        String longSituation = "\uD83D\uDE80".repeat(120);
        Episode withError = failure("e", 5, T0, longSituation, null, "x".repeat(150), null, List.of());
        Episode withLesson = failure("l", 4, T0, "s", "L".repeat(150), null, null, List.of());
        assertThat(FailureWarnings.format(List.of(withError, withLesson), List.of(), 5))
                .isEqualTo("MISTAKES TO AVOID:\n- " + "\uD83D\uDE80".repeat(100) + " \u2014 " + "x".repeat(100)
                        + "\n- s \u2014 " + "L".repeat(150));
    }

    @Test
    void onlySuggestionsWhenNoEpisodeHasALessonOrError() {
        Episode e = failure("e", 5, T0, "s", null, null, "Try again later.", List.of());
        assertThat(FailureWarnings.format(List.of(e), List.of(), 5))
                .isEqualTo("SUGGESTED APPROACHES:\n- Try again later.");
    }

    @Test
    void nothingToWarnAboutIsEmpty() {
        assertThat(FailureWarnings.format(List.of(), List.of(), 5)).isEmpty();
        Episode silent = failure("e", 5, T0, "s", null, null, null, List.of());
        assertThat(FailureWarnings.format(List.of(silent), List.of(), 5)).isEmpty();
        assertThat(FailureWarnings.format(List.of(silent), List.of(), 0)).isEmpty();
    }

    @Test
    void userPreferencesShowTheLessonOrTheSituationForAtMostFive() {
        List<Episode> prefs = List.of(
                Episodes.of("1", EpisodeOutcome.SUCCESS, "report format", "Prefers CSV", LessonSource.EXPLICIT),
                Episodes.of("2", EpisodeOutcome.SUCCESS, "y".repeat(130), null, null),
                Episodes.of("3", EpisodeOutcome.SUCCESS, "3", null, null),
                Episodes.of("4", EpisodeOutcome.SUCCESS, "4", null, null),
                Episodes.of("5", EpisodeOutcome.SUCCESS, "5", null, null),
                Episodes.of("6", EpisodeOutcome.SUCCESS, "6", null, null));
        assertThat(FailureWarnings.userPreferences(prefs))
                .isEqualTo("USER PREFERENCES:\n- Prefers CSV\n- " + "y".repeat(100) + "\n- 3\n- 4\n- 5");
        assertThat(FailureWarnings.userPreferences(List.of())).isEmpty();
    }

    @Test
    void roomContextMarksFailuresAndCutsToEightyCodePoints() {
        List<Episode> recent = List.of(
                Episodes.of("1", EpisodeOutcome.SUCCESS, "z".repeat(90), null, null),
                Episodes.of("2", EpisodeOutcome.TIMEOUT, "slow query", null, null),
                Episodes.of("3", EpisodeOutcome.PARTIAL, "half done", null, null));
        assertThat(FailureWarnings.roomContext(recent))
                .isEqualTo("ROOM CONTEXT (recent activity):\n- [OK] " + "z".repeat(80)
                        + "\n- [FAIL] slow query\n- [OK] half done");
        assertThat(FailureWarnings.roomContext(List.of())).isEmpty();
    }

    @Test
    void preAskContextJoinsNonEmptyBlocksWithABlankLine() {
        assertThat(FailureWarnings.preAskContext("W", "", null, "R")).isEqualTo("W\n\nR");
        assertThat(FailureWarnings.preAskContext("", "")).isEmpty();
    }

    @Test
    void crossDomainWarningsAreAppendedPerAgent() {
        Map<String, String> others = new LinkedHashMap<>();
        others.put("billing", "MISTAKES TO AVOID:\n- x \u2014 y");
        others.put("quiet", "");
        others.put("search", "SUGGESTED APPROACHES:\n- z");
        assertThat(FailureWarnings.withCrossDomain("LOCAL", others))
                .isEqualTo(
                        "LOCAL\n\n[cross-domain: billing]\nMISTAKES TO AVOID:\n- x \u2014 y\n\n[cross-domain: search]\n"
                                + "SUGGESTED APPROACHES:\n- z");
        assertThat(FailureWarnings.withCrossDomain("", Map.of("a", "w"))).isEqualTo("[cross-domain: a]\nw");
    }
}
