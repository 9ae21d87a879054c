package org.agentmemory.episodic.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.api.episodic.ReflectionResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HeuristicReflectorTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "File not found: /tmp/x | Verify resource exists before accessing | Check existence or list available resources first.",
                "Table DOES NOT EXIST | Verify resource exists before accessing | Check existence or list available resources first.",
                "no such key | Verify resource exists before accessing | Check existence or list available resources first.",
                "Missing field 'id' | Verify resource exists before accessing | Check existence or list available resources first.",
                "Read Timeout | Consider reducing scope or adding timeout | Use shorter timeouts and break large operations into chunks.",
                "request timed out | Consider reducing scope or adding timeout | Use shorter timeouts and break large operations into chunks.",
                "Deadline Exceeded | Consider reducing scope or adding timeout | Use shorter timeouts and break large operations into chunks.",
                "rate limit hit | Add delay between API calls | Implement backoff or reduce request frequency.",
                "RATE_LIMITED | Add delay between API calls | Implement backoff or reduce request frequency.",
                "ratelimit | Add delay between API calls | Implement backoff or reduce request frequency.",
                "HTTP 429 | Add delay between API calls | Implement backoff or reduce request frequency.",
                "Too Many Requests | Add delay between API calls | Implement backoff or reduce request frequency.",
                "request was throttled | Add delay between API calls | Implement backoff or reduce request frequency.",
                "Permission denied | Check permissions before action | Verify credentials and permissions before attempting the operation.",
                "HTTP 403 | Check permissions before action | Verify credentials and permissions before attempting the operation.",
                "Unauthorized | Check permissions before action | Verify credentials and permissions before attempting the operation.",
                "FORBIDDEN | Check permissions before action | Verify credentials and permissions before attempting the operation.",
                "access denied for user | Check permissions before action | Verify credentials and permissions before attempting the operation.",
                "Connection reset | Verify service availability before calling | Check service health or connectivity before making requests.",
                "connect ECONNREFUSED 127.0.0.1:5432 | Verify service availability before calling | Check service health or connectivity before making requests.",
                "host unreachable | Verify service availability before calling | Check service health or connectivity before making requests.",
                "Network is down | Verify service availability before calling | Check service health or connectivity before making requests.",
                "Invalid argument | Validate input format before sending | Check input against expected schema before the API call.",
                "malformed JSON | Validate input format before sending | Check input against expected schema before the API call.",
                "Bad Request | Validate input format before sending | Check input against expected schema before the API call.",
                "status 400 | Validate input format before sending | Check input against expected schema before the API call.",
                "schema validation error | Validate input format before sending | Check input against expected schema before the API call.",
                "java.lang.OutOfMemoryError | Reduce data size or batch processing | Process data in smaller batches to avoid memory issues.",
                "Out of memory | Reduce data size or batch processing | Process data in smaller batches to avoid memory issues.",
                "killed: OOM | Reduce data size or batch processing | Process data in smaller batches to avoid memory issues."
            })
    void everyRowOfTheTableMatchesCaseInsensitively(String error, String lesson, String suggestion) {
        ReflectionResult result = HeuristicReflector.reflect(EpisodeOutcome.FAILURE, "s", "a", error);
        assertThat(result).isEqualTo(new ReflectionResult("Action failed with error: " + error, lesson, suggestion));
    }

    @Test
    void theFirstMatchingRowWins() {
        // "connection timed out" matches row 2 (timeout) before row 5 (connection).
        assertThat(HeuristicReflector.reflect(EpisodeOutcome.TIMEOUT, "s", "a", "connection timed out")
                        .lessonLearned())
                .isEqualTo("Consider reducing scope or adding timeout");
        // "permission file not found" matches row 1 before row 4.
        assertThat(HeuristicReflector.reflect(EpisodeOutcome.FAILURE, "s", "a", "permission file not found")
                        .lessonLearned())
                .isEqualTo("Verify resource exists before accessing");
    }

    @Test
    void theReflectionCutsTheMessageToTwoHundredCodePoints() {
        String message = "\uD83D\uDCA5".repeat(150) + " not found" + "x".repeat(100);
        ReflectionResult result = HeuristicReflector.reflect(EpisodeOutcome.FAILURE, "s", "a", message);
        assertThat(result.reflection())
                .isEqualTo("Action failed with error: " + "\uD83D\uDCA5".repeat(150) + " not found" + "x".repeat(40));
    }

    @Test
    void failureWithAnUnmatchedErrorUsesTheGenericFailure() {
        String action = "a".repeat(120);
        ReflectionResult result = HeuristicReflector.reflect(EpisodeOutcome.FAILURE, "s", action, "it broke");
        assertThat(result)
                .isEqualTo(new ReflectionResult(
                        "Action '" + "a".repeat(100) + "' failed: it broke",
                        "Review approach and consider alternatives",
                        "Analyze the error and try a different strategy."));
    }

    @Test
    void failureOrTimeoutWithoutAnErrorDidNotSucceed() {
        ReflectionResult expected = new ReflectionResult(
                "Action 'call api' did not succeed.",
                "Review approach and consider alternatives",
                "Investigate why the action failed and try a different approach.");
        assertThat(HeuristicReflector.reflect(EpisodeOutcome.FAILURE, "s", "call api", null))
                .isEqualTo(expected);
        assertThat(HeuristicReflector.reflect(EpisodeOutcome.TIMEOUT, "s", "call api", ""))
                .isEqualTo(expected);
    }

    @Test
    void partialIgnoresTheErrorMessage() {
        assertThat(HeuristicReflector.reflect(EpisodeOutcome.PARTIAL, "s", "call api", "timeout"))
                .isEqualTo(new ReflectionResult(
                        "Action 'call api' partially succeeded.",
                        "Partial success; refine approach",
                        "Identify what worked and what didn't to improve the approach."));
    }

    @Test
    void successNamesActionAndSituationCutToHundredCodePoints() {
        String situation = "é".repeat(130);
        assertThat(HeuristicReflector.reflect(EpisodeOutcome.SUCCESS, situation, "call api", "not found"))
                .isEqualTo(new ReflectionResult(
                        "Action 'call api' succeeded for: " + "é".repeat(100),
                        "Approach worked; remember this pattern",
                        "Reuse this approach for similar situations."));
    }

    @Test
    void theReflectorReportsTheHeuristicSource() {
        EpisodeInput input = EpisodeInput.builder(Episodes.NS, "s", "a", EpisodeOutcome.SUCCESS)
                .build();
        ReflectionOutcome outcome = new HeuristicReflector().reflect(input);
        assertThat(outcome.source()).isEqualTo(LessonSource.HEURISTIC);
        assertThat(outcome.result().lessonLearned()).isEqualTo(HeuristicReflector.SUCCESS_LESSON);
    }
}
