package org.agentmemory.episodic.control;

import java.util.List;
import java.util.regex.Pattern;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.api.episodic.ReflectionResult;
import org.agentmemory.platform.text.CodePoints;

/**
 * The heuristic reflection table of spec §10.4, exactly. For a FAILURE or TIMEOUT with a non-empty error
 * message, the first row whose pattern is found anywhere in the message (case-insensitive, Unicode) wins:
 *
 * <table>
 * <caption>Rows, in order</caption>
 * <tr><th>#</th><th>pattern</th><th>lesson</th></tr>
 * <tr><td>1</td><td>{@code not found|does not exist|no such|missing}</td><td>Verify resource exists before accessing</td></tr>
 * <tr><td>2</td><td>{@code timeout|timed out|deadline exceeded}</td><td>Consider reducing scope or adding timeout</td></tr>
 * <tr><td>3</td><td>{@code rate.?limit|429|too many requests|throttl}</td><td>Add delay between API calls</td></tr>
 * <tr><td>4</td><td>{@code permission|403|unauthorized|forbidden|access denied}</td><td>Check permissions before action</td></tr>
 * <tr><td>5</td><td>{@code connection|refused|unreachable|network|ECONNREFUSED}</td><td>Verify service availability before calling</td></tr>
 * <tr><td>6</td><td>{@code invalid|malformed|bad request|400|validation}</td><td>Validate input format before sending</td></tr>
 * <tr><td>7</td><td>{@code out of memory|OOM|memory}</td><td>Reduce data size or batch processing</td></tr>
 * </table>
 *
 * <p>and the reflection is {@code Action failed with error: {msg[:200]}}. Otherwise the per-outcome
 * fallbacks apply ({@link #reflect(EpisodeOutcome, String, String, String)}). Slices count code points.
 * Numbers are matched as substrings, as in the reference ({@code 400} also matches {@code 4001}).
 *
 * <p>The source is always {@link LessonSource#HEURISTIC}; whether the lesson then counts is decided by
 * {@link Episode#isLessonBearing()} (the generic SUCCESS lesson does not: spec §13 #7).
 */
public final class HeuristicReflector implements Reflector {

    /** Lesson when a failure matched no row, or had no error message. */
    public static final String GENERIC_FAILURE_LESSON = "Review approach and consider alternatives";
    /** Lesson of every PARTIAL. */
    public static final String PARTIAL_LESSON = "Partial success; refine approach";
    /** Lesson of every SUCCESS (recognised by {@link Episode#isLessonBearing()}). */
    public static final String SUCCESS_LESSON = Episode.HEURISTIC_SUCCESS_LESSON;

    private record Row(Pattern pattern, String lesson, String suggestion) {}

    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

    private static final List<Row> ROWS = List.of(
            new Row(
                    Pattern.compile("not found|does not exist|no such|missing", FLAGS),
                    "Verify resource exists before accessing",
                    "Check existence or list available resources first."),
            new Row(
                    Pattern.compile("timeout|timed out|deadline exceeded", FLAGS),
                    "Consider reducing scope or adding timeout",
                    "Use shorter timeouts and break large operations into chunks."),
            new Row(
                    Pattern.compile("rate.?limit|429|too many requests|throttl", FLAGS),
                    "Add delay between API calls",
                    "Implement backoff or reduce request frequency."),
            new Row(
                    Pattern.compile("permission|403|unauthorized|forbidden|access denied", FLAGS),
                    "Check permissions before action",
                    "Verify credentials and permissions before attempting the operation."),
            new Row(
                    Pattern.compile("connection|refused|unreachable|network|ECONNREFUSED", FLAGS),
                    "Verify service availability before calling",
                    "Check service health or connectivity before making requests."),
            new Row(
                    Pattern.compile("invalid|malformed|bad request|400|validation", FLAGS),
                    "Validate input format before sending",
                    "Check input against expected schema before the API call."),
            new Row(
                    Pattern.compile("out of memory|OOM|memory", FLAGS),
                    "Reduce data size or batch processing",
                    "Process data in smaller batches to avoid memory issues."));

    @Override
    public ReflectionOutcome reflect(EpisodeInput input) {
        return new ReflectionOutcome(
                reflect(input.outcome(), input.situation(), input.actionTaken(), input.errorMessage()),
                LessonSource.HEURISTIC);
    }

    /**
     * The table above, then the fallbacks:
     * <ul>
     * <li>FAILURE/TIMEOUT with an error but no matching row: {@code Action '{action[:100]}' failed: {msg[:200]}},
     * lesson {@value #GENERIC_FAILURE_LESSON}, suggestion {@code Analyze the error and try a different strategy.}</li>
     * <li>FAILURE/TIMEOUT without an error: {@code Action '{action[:100]}' did not succeed.}, the same lesson,
     * suggestion {@code Investigate why the action failed and try a different approach.}</li>
     * <li>PARTIAL (error ignored): {@code Action '{action[:100]}' partially succeeded.}, lesson
     * {@value #PARTIAL_LESSON}, suggestion {@code Identify what worked and what didn't to improve the approach.}</li>
     * <li>SUCCESS: {@code Action '{action[:100]}' succeeded for: {situation[:100]}}, lesson
     * {@value #SUCCESS_LESSON}, suggestion {@code Reuse this approach for similar situations.}</li>
     * </ul>
     *
     * @param outcome      the outcome; never {@code null}
     * @param situation    the situation; never {@code null}
     * @param actionTaken  the action; never {@code null}
     * @param errorMessage the error message, or {@code null}/empty for none
     * @return the reflection
     */
    public static ReflectionResult reflect(
            EpisodeOutcome outcome, String situation, String actionTaken, String errorMessage) {
        String action = CodePoints.head(actionTaken, 100);
        boolean hasError = errorMessage != null && !errorMessage.isEmpty();
        if (outcome.isFailure() && hasError) {
            String message = CodePoints.head(errorMessage, 200);
            for (Row row : ROWS) {
                if (row.pattern().matcher(errorMessage).find()) {
                    return new ReflectionResult("Action failed with error: " + message, row.lesson(), row.suggestion());
                }
            }
            return new ReflectionResult(
                    "Action '" + action + "' failed: " + message,
                    GENERIC_FAILURE_LESSON,
                    "Analyze the error and try a different strategy.");
        }
        return switch (outcome) {
            case FAILURE, TIMEOUT ->
                new ReflectionResult(
                        "Action '" + action + "' did not succeed.",
                        GENERIC_FAILURE_LESSON,
                        "Investigate why the action failed and try a different approach.");
            case PARTIAL ->
                new ReflectionResult(
                        "Action '" + action + "' partially succeeded.",
                        PARTIAL_LESSON,
                        "Identify what worked and what didn't to improve the approach.");
            case SUCCESS ->
                new ReflectionResult(
                        "Action '" + action + "' succeeded for: " + CodePoints.head(situation, 100),
                        SUCCESS_LESSON,
                        "Reuse this approach for similar situations.");
        };
    }
}
