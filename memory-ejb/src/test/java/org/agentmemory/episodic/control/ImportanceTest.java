package org.agentmemory.episodic.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImportanceTest {

    @ParameterizedTest
    @CsvSource(
            nullValues = "null",
            value = {
                "FAILURE, null, 7", "TIMEOUT, null, 7", "PARTIAL, null, 5", "SUCCESS, null, 3",
                "FAILURE, timeout, 9", "TIMEOUT, RATE_LIMIT, 9", "PARTIAL, Permission, 7", "SUCCESS, connection, 5",
                "SUCCESS, validation, 5", "FAILURE, rate limit, 7", "FAILURE, oom, 7", "FAILURE, '', 7"
            })
    void autoImportanceIsBaseByOutcomePlusTwoForAKnownErrorType(
            EpisodeOutcome outcome, String errorType, int expected) {
        assertThat(Importance.autoImportance(outcome, errorType)).isEqualTo(expected);
    }

    @Test
    void knownErrorTypesMatchIndependentlyOfTheTurkishDefaultLocale() {
        // "VALIDATION".toLowerCase() in tr gives a dotless ı; the root locale must be used.
        assertThat(Importance.autoImportance(EpisodeOutcome.FAILURE, "VALIDATION"))
                .isEqualTo(9);
        assertThat(Importance.autoImportance(EpisodeOutcome.FAILURE, "PERMISSION"))
                .isEqualTo(9);
    }

    @ParameterizedTest
    @CsvSource({
        "0.25, 2",
        "0.35, 4",
        "0.45, 4",
        "0.15, 2",
        "0.05, 1",
        "0.0, 1",
        "-0.4, 1",
        "1.0, 10",
        "3.7, 10",
        "0.5, 5",
        "0.65, 6",
        "0.7, 7",
        "0.6000000000000001, 6"
    })
    void applyScorerRoundsHalfEvenLikePythonAndClamps(double score, int expected) {
        assertThat(Importance.applyScorer(score)).isEqualTo(expected);
    }

    @Test
    void applyScorerRejectsNonFiniteScores() {
        assertThatThrownBy(() -> Importance.applyScorer(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NaN");
    }

    @Test
    void heuristicScorerGivesBackTheAutomaticImportance() {
        HeuristicScorer scorer = new HeuristicScorer();
        Episode failure = Episodes.failure("a", 1, Episodes.T0, "s", null, "x", null, null);
        assertThat(scorer.score(failure)).isEqualTo(0.7);
        assertThat(Importance.applyScorer(scorer.score(failure))).isEqualTo(7);
    }

    @Test
    void valueScorerAddsTheReferenceWeights() {
        ValueScorer scorer = new ValueScorer();
        Episode bare = Episodes.of("a", EpisodeOutcome.SUCCESS, "short", null, null);
        assertThat(scorer.score(bare)).isEqualTo(0.3);
        assertThat(scorer.isValuable(bare)).isFalse();

        Episode full = new Episode(
                "b",
                Episodes.NS,
                Episodes.T0,
                Episodes.T0,
                null,
                "please find all the overdue invoices",
                "act",
                EpisodeOutcome.SUCCESS,
                "x".repeat(101),
                null,
                null,
                null,
                "lesson",
                null,
                LessonSource.MODEL,
                null,
                5,
                false,
                List.of("search"),
                null,
                null);
        // 0.3 + 0.2 + 0.1 + 0.2 + 0.15 = 0.95
        assertThat(scorer.score(full)).isCloseTo(0.95, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(Importance.applyScorer(scorer.score(full))).isEqualTo(10);
        assertThat(scorer.isValuable(full)).isTrue();
    }

    @Test
    void valueScorerPenalisesFailuresButNotTimeoutsAndClampsAtZero() {
        ValueScorer scorer = new ValueScorer();
        assertThat(scorer.score(Episodes.of("a", EpisodeOutcome.FAILURE, "s", null, null)))
                .isEqualTo(0.0);
        Episode failureWithTool = new Episode(
                "b",
                Episodes.NS,
                Episodes.T0,
                Episodes.T0,
                null,
                "s",
                "a",
                EpisodeOutcome.FAILURE,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                5,
                true,
                List.of("t"),
                null,
                null);
        assertThat(scorer.score(failureWithTool)).isCloseTo(0.05, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(scorer.score(Episodes.of("c", EpisodeOutcome.TIMEOUT, "s", null, null)))
                .isEqualTo(0.0);
        assertThat(scorer.score(Episodes.of("d", EpisodeOutcome.PARTIAL, "s", "l", LessonSource.HEURISTIC)))
                .isEqualTo(0.15);
    }

    @Test
    void valueScorerCountsMoreThanFiveWhitespaceSeparatedWordsAndMoreThanHundredCodePoints() {
        assertThat(ValueScorer.wordCount("  one two\u00a0three\tfour\nfive  ")).isEqualTo(5);
        assertThat(ValueScorer.wordCount("")).isZero();
        ValueScorer scorer = new ValueScorer();
        Episode fiveWords = Episodes.of("a", EpisodeOutcome.PARTIAL, "one two three four five", null, null);
        Episode sixWords = Episodes.of("b", EpisodeOutcome.PARTIAL, "one two three four five six", null, null);
        assertThat(scorer.score(fiveWords)).isZero();
        assertThat(scorer.score(sixWords)).isEqualTo(0.1);
        // 100 emoji = 100 code points (200 UTF-16 units): not more than 100.
        Episode hundredEmoji = new Episode(
                "c",
                Episodes.NS,
                Episodes.T0,
                Episodes.T0,
                null,
                "s",
                "a",
                EpisodeOutcome.PARTIAL,
                "\uD83D\uDE00".repeat(100),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                5,
                false,
                null,
                null,
                null);
        assertThat(scorer.score(hundredEmoji)).isZero();
    }
}
