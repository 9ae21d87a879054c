package org.agentmemory.compaction.control;

import static org.agentmemory.compaction.control.Turns.failed;
import static org.agentmemory.compaction.control.Turns.tool;
import static org.agentmemory.compaction.control.Turns.turn;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.junit.jupiter.api.Test;

class ExtractiveSummarizerTest {

    private static final TokenCounter COUNTER = TokenCounters.defaultCounter();
    private static final ExtractiveSummarizer SUMMARIZER = new ExtractiveSummarizer(COUNTER);

    private static TurnRecord deploy() {
        return turn(
                "t1",
                "Hi there! Can you check why the deploy of billing-api to team-3 failed on 12 May?",
                "Sure. I looked at the cluster. The namespace quota of team-3 is at 95 of 100 pods. I raised it to"
                        + " 120 pods. We will deploy again on Thursday at 10:00. The logs are clean. Anything else?",
                tool("kubectl", Map.of("command", "kubectl get quota"), "pods 95/100"),
                failed("psql", Map.of("sql", "select 1"), "lock timeout\nat statement 3"));
    }

    @Test
    void aTurnBecomesOneLineOfKeySentencesToolOutcomesAndDecisions() {
        assertThat(ExtractiveSummarizer.line(deploy()))
                .isEqualTo("- User: Can you check why the deploy of billing-api to team-3 failed on 12 May?"
                        + " Assistant: The namespace quota of team-3 is at 95 of 100 pods. I raised it to 120 pods."
                        + " Tools: kubectl ok; psql error (lock timeout)."
                        + " Decision: We will deploy again on Thursday at 10:00.");
    }

    @Test
    void aShortResponseGivesOneKeySentenceALongOneTwo() {
        assertThat(ExtractiveSummarizer.line(turn("t1", "Where?", "It is in Lisbon. It arrived on 3 May. Fine.")))
                .isEqualTo("- User: Where? Assistant: It arrived on 3 May.");
        assertThat(ExtractiveSummarizer.line(
                        turn("t2", "Where?", "It is in Lisbon. It arrived on 3 May. Fine. Good. Ok then. Ask Ana.")))
                .isEqualTo("- User: Where? Assistant: It is in Lisbon. It arrived on 3 May.");
    }

    @Test
    void keySentencesPreferFiguresAndNamesOverFillersAndKeepTheirOrder() {
        List<String> sentences =
                ExtractiveSummarizer.sentences("Thanks! Alice moved the launch to 3 June. That is fine by me.\nOk.");

        assertThat(sentences)
                .containsExactly("Thanks!", "Alice moved the launch to 3 June.", "That is fine by me.", "Ok.");
        assertThat(ExtractiveSummarizer.keySentences(sentences, 1))
                .containsExactly("Alice moved the launch to 3 June.");
        assertThat(ExtractiveSummarizer.keySentences(sentences, 2))
                .containsExactly("Alice moved the launch to 3 June.", "That is fine by me.");
        assertThat(ExtractiveSummarizer.keySentences(List.of(), 2)).isEmpty();
    }

    @Test
    void aLongSentenceIsCutAndAToolOnlyTurnKeepsItsOutcomes() {
        String longSentence = "word ".repeat(100).strip() + ".";
        TurnRecord toolOnly = turn("t2", "Run it", "", tool("bash", Map.of("cmd", "make"), "ok"));

        String line = ExtractiveSummarizer.line(turn("t3", longSentence, "Done."));

        assertThat(line).startsWith("- User: word word").contains("\u2026 Assistant: Done.");
        assertThat(line.substring("- User: ".length(), line.indexOf(" Assistant:")))
                .hasSize(ExtractiveSummarizer.MAX_SENTENCE_CHARS);
        assertThat(ExtractiveSummarizer.line(toolOnly)).isEqualTo("- User: Run it Tools: bash ok.");
        assertThat(ExtractiveSummarizer.line(turn("t4", " ", " "))).isEmpty();
    }

    @Test
    void decisionsAreRecognisedByTheirWordsOnly() {
        assertThat(ExtractiveSummarizer.isDecision("We decided to use PostgreSQL."))
                .isTrue();
        assertThat(ExtractiveSummarizer.isDecision("Let’s ship it on Monday.")).isTrue();
        assertThat(ExtractiveSummarizer.isDecision("I'll send the invoice.")).isTrue();
        assertThat(ExtractiveSummarizer.isDecision("The undecided voters were counted."))
                .isFalse();
        assertThat(ExtractiveSummarizer.isDecision("Swill is not a word we will use."))
                .isTrue();
        assertThat(ExtractiveSummarizer.isDecision("The quota is at 95 pods.")).isFalse();
    }

    @Test
    void extendingAppendsOnlyTheNewTurnsLinesToThePreviousSummary() {
        String first = SUMMARIZER.extend(null, List.of(deploy()), 2_000);
        TurnRecord next = turn("t5", "What is the new limit?", "The limit is 120 pods since Tuesday.");

        String second = SUMMARIZER.extend(first, List.of(next), 2_000);

        assertThat(first).isEqualTo(ExtractiveSummarizer.line(deploy()));
        assertThat(second).isEqualTo(first + "\n" + ExtractiveSummarizer.line(next));
        // Deterministic: the same input gives the same text.
        assertThat(SUMMARIZER.extend(first, List.of(next), 2_000)).isEqualTo(second);
    }

    @Test
    void aSummaryOverItsBoundLosesItsOldestPlainLinesFirstAndNeverExceedsIt() {
        List<TurnRecord> turns = new ArrayList<>();
        for (int i = 1; i <= 60; i++) {
            String reply = i == 3
                    ? "We agreed to freeze the schema on 1 March."
                    : "Order " + i + " ships from Lisbon on day " + i + ".";
            turns.add(turn("t" + i, "Where is order " + i + "?", reply));
        }

        String summary = SUMMARIZER.extend(null, turns, 200);

        assertThat(COUNTER.count(summary)).isLessThanOrEqualTo(200);
        List<String> lines = SummaryText.lines(summary);
        assertThat(lines.get(0)).contains("Decision: We agreed to freeze the schema on 1 March.");
        assertThat(lines.get(lines.size() - 1)).contains("Order 60 ships from Lisbon on day 60.");
        assertThat(summary).doesNotContain("Order 4 ships");
    }
}
