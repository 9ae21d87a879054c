package org.agentmemory.working.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.working.ContextFrame;
import org.junit.jupiter.api.Test;

/** Seed 003's {@code _rerank_by_context}: 0.7 × text score + 0.3 × context match, with the seed's bugs fixed. */
class ContextRerankingTest {

    private static ContextFrame frame(String type, Map<String, Object> data) {
        return new ContextFrame(type, data, Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void theSameTypeAndTheSameDataMatchFully() {
        ContextFrame a = frame("task", Map.of("name", "research"));
        assertThat(ContextReranking.contextMatch(a, frame("task", Map.of("name", "research"))))
                .isEqualTo(1.0);
    }

    @Test
    void theSameTypeAloneMatchesHalf() {
        assertThat(ContextReranking.contextMatch(frame("task", Map.of()), frame("task", Map.of("name", "x"))))
                .isEqualTo(0.5);
    }

    @Test
    void sharedWordsCountOverTheLargerFramesWords() {
        // words: {name, quarterly, report} and {name, annual, report, draft}: 2 shared of 4
        ContextFrame item = frame("task", Map.of("name", "Quarterly report"));
        ContextFrame current = frame("conversation", Map.of("name", "annual report, draft"));
        assertThat(ContextReranking.contextMatch(item, current)).isCloseTo(0.5 * 2 / 4, within(1e-12));
    }

    @Test
    void wordsAreComparedWithoutPunctuationCaseOrNesting() {
        // Python's str(dict) keeps quotes and braces on the words, so the seed would miss these.
        ContextFrame item = frame("task", Map.of("name", "'Research'}"));
        ContextFrame current = frame("task", Map.of("name", List.of("research")));
        assertThat(ContextReranking.contextMatch(item, current)).isEqualTo(1.0);
    }

    @Test
    void noContextOnEitherSideMatchesNothing() {
        ContextFrame f = frame("task", Map.of("name", "x"));
        assertThat(ContextReranking.contextMatch(null, f)).isZero();
        assertThat(ContextReranking.contextMatch(f, null)).isZero();
    }

    @Test
    void theBlendIsSevenTenthsTextAndThreeTenthsContext() {
        ContextFrame research = frame("task", Map.of("name", "research"));
        ContextFrame coding = frame("task", Map.of("name", "coding"));
        List<ContextReranking.Candidate<String>> candidates = List.of(
                new ContextReranking.Candidate<>("coding note", 4.0, coding, 1),
                new ContextReranking.Candidate<>("research note", 3.0, research, 2));
        List<ContextReranking.Ranked<String>> ranked = ContextReranking.rank(candidates, research, 10);
        // The coding frame shares the type and the word "name": 0.7 × 1 + 0.3 × (0.5 + 0.5 × 1/2) = 0.925 stays
        // above research's 0.7 × 0.75 + 0.3 × 1 = 0.825.
        assertThat(ranked.get(0).value()).isEqualTo("coding note");
        assertThat(ranked.get(0).relevance()).isCloseTo(0.925, within(1e-12));
        assertThat(ranked.get(1).relevance()).isCloseTo(0.825, within(1e-12));
    }

    @Test
    void theCurrentContextLiftsAWeakerTextHitAboveAStrongerOne() {
        ContextFrame research = frame("task", Map.of("name", "research"));
        ContextFrame tool = frame("tool_use", Map.of("tool", "grep"));
        List<ContextReranking.Ranked<String>> lifted = ContextReranking.rank(
                List.of(
                        new ContextReranking.Candidate<>("grep output", 3.0, tool, 1),
                        new ContextReranking.Candidate<>("unrelated", 4.0, research, 2)),
                tool,
                10);
        // grep output: 0.7 × 0.75 + 0.3 × 1 = 0.825; unrelated: 0.7 × 1 + 0 = 0.7
        assertThat(lifted).extracting(ContextReranking.Ranked::value).containsExactly("grep output", "unrelated");
        assertThat(lifted.get(0).textScore()).isEqualTo(0.75);
        assertThat(lifted.get(0).contextMatch()).isEqualTo(1.0);
    }

    @Test
    void withoutAContextTheTextScoreScaledToTheBestDecides() {
        ContextFrame research = frame("task", Map.of("name", "research"));
        List<ContextReranking.Ranked<String>> ranked = ContextReranking.rank(
                List.of(
                        new ContextReranking.Candidate<>("b", 2.0, research, 1),
                        new ContextReranking.Candidate<>("a", 8.0, null, 2)),
                null,
                10);
        assertThat(ranked).extracting(ContextReranking.Ranked::value).containsExactly("a", "b");
        assertThat(ranked).extracting(ContextReranking.Ranked::relevance).containsExactly(1.0, 0.25);
        assertThat(ranked).extracting(ContextReranking.Ranked::contextMatch).containsExactly(0.0, 0.0);
    }

    @Test
    void tiesGoToTheNewerItemAndTheLimitCuts() {
        List<ContextReranking.Ranked<String>> ranked = ContextReranking.rank(
                List.of(
                        new ContextReranking.Candidate<>("older", 1.0, null, 1),
                        new ContextReranking.Candidate<>("newer", 1.0, null, 5),
                        new ContextReranking.Candidate<>("weak", 0.5, null, 9)),
                null,
                2);
        assertThat(ranked).extracting(ContextReranking.Ranked::value).containsExactly("newer", "older");
    }

    @Test
    void moreCandidatesAreRerankedThanReturned() {
        assertThat(ContextReranking.candidates(1)).isEqualTo(50);
        assertThat(ContextReranking.candidates(100)).isEqualTo(300);
    }
}
