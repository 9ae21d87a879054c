package org.agentmemory.episodic.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.api.episodic.LessonSource;
import org.junit.jupiter.api.Test;

class ToolTextsTest {

    @Test
    void searchResultsListEachEpisodeWithItsDetails() {
        Episode failure = Episodes.failure(
                "f",
                8,
                Episodes.T0,
                "Fetch the monthly report",
                "Pace report fetches",
                "HTTP 429",
                "Wait between fetches.",
                List.of("fetch"));
        Episode success = Episodes.of(
                "s", EpisodeOutcome.SUCCESS, "Export to CSV", Episode.HEURISTIC_SUCCESS_LESSON, LessonSource.HEURISTIC);
        String text = ToolTexts.searchResults(
                List.of(new EpisodeSearchResult(failure, 0.875), new EpisodeSearchResult(success, 0.5)));
        assertThat(text).isEqualTo("""
                Found 2 relevant past experiences:
                1. [FAILURE] Fetch the monthly report (score: 0.88)
                   Action: act
                   Error: HTTP 429
                   Lesson: Pace report fetches
                   Suggestion: Wait between fetches.
                2. [SUCCESS] Export to CSV (score: 0.50)
                   Action: act""");
    }

    @Test
    void oneResultIsSingularAndNoneHasAFixedAnswer() {
        Episode e = Episodes.of("s", EpisodeOutcome.PARTIAL, "x", null, null);
        assertThat(ToolTexts.searchResults(List.of(new EpisodeSearchResult(e, 0.125))))
                .startsWith("Found 1 relevant past experience:\n1. [PARTIAL] x (score: 0.12)");
        assertThat(ToolTexts.searchResults(List.of())).isEqualTo("No relevant past experiences found.");
    }

    @Test
    void lessonAndWarningAnswers() {
        Episode lesson = new Episode(
                "id-9",
                Episodes.NS,
                Episodes.T0,
                Episodes.T0,
                null,
                "s",
                "Recorded lesson",
                EpisodeOutcome.SUCCESS,
                null,
                null,
                null,
                null,
                "Users want CSV",
                null,
                LessonSource.EXPLICIT,
                null,
                6,
                false,
                null,
                null,
                null);
        assertThat(ToolTexts.lessonRecorded(lesson))
                .isEqualTo("Lesson recorded (id id-9, importance 6): Users want CSV");
        assertThat(ToolTexts.warnings("")).isEqualTo("No past failures to warn about.");
        assertThat(ToolTexts.warnings("MISTAKES TO AVOID:\n- a \u2014 b"))
                .isEqualTo("MISTAKES TO AVOID:\n- a \u2014 b");
    }
}
