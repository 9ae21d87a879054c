package org.agentmemory.episodic.control;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.StringJoiner;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.platform.text.CodePoints;

/**
 * What the agent toolkit (prefix {@code ep}, spec §10.9) returns to the model as text. The reference fixes
 * the tools, not their answer texts; these formats are ours and exact (LF line ends, no trailing line
 * break, numbers locale-independent).
 *
 * <p>{@code search_episodic_memory}:
 * <pre>
 * Found 2 relevant past experiences:
 * 1. [FAILURE] {situation[:100]} (score: 0.87)
 *    Action: {actionTaken[:100]}
 *    Error: {errorMessage[:100]}
 *    Lesson: {lessonLearned}
 *    Suggestion: {suggestedAction}
 * 2. [SUCCESS] …
 * </pre>
 * ("experience" for one result; the Error, Lesson and Suggestion lines only when present, the Lesson line
 * only for {@linkplain Episode#isLessonBearing() lesson-bearing} episodes so generic heuristic success
 * lessons are not shown; the score with two decimals, half-even); no result:
 * {@value #NO_EXPERIENCES}.
 *
 * <p>{@code record_lesson}: {@code Lesson recorded (id {episodeId}, importance {n}): {lesson}}.
 *
 * <p>{@code get_warnings}: the {@link FailureWarnings#format} text, or {@value #NO_WARNINGS} when it is empty.
 */
public final class ToolTexts {

    /** Answer of {@code search_episodic_memory} without results. */
    public static final String NO_EXPERIENCES = "No relevant past experiences found.";
    /** Answer of {@code get_warnings} without warnings. */
    public static final String NO_WARNINGS = "No past failures to warn about.";

    private ToolTexts() {}

    /**
     * @param results the recalled episodes, best first
     * @return the {@code search_episodic_memory} answer
     */
    public static String searchResults(List<EpisodeSearchResult> results) {
        if (results.isEmpty()) {
            return NO_EXPERIENCES;
        }
        StringJoiner text = new StringJoiner("\n");
        text.add("Found " + results.size() + " relevant past experience" + (results.size() == 1 ? "" : "s") + ":");
        int n = 0;
        for (EpisodeSearchResult result : results) {
            Episode episode = result.episode();
            text.add(++n + ". [" + episode.outcome().name() + "] " + CodePoints.head(episode.situation(), 100)
                    + " (score: " + twoDecimals(result.score()) + ")");
            text.add("   Action: " + CodePoints.head(episode.actionTaken(), 100));
            if (episode.errorMessage() != null && !episode.errorMessage().isEmpty()) {
                text.add("   Error: " + CodePoints.head(episode.errorMessage(), 100));
            }
            if (episode.isLessonBearing()) {
                text.add("   Lesson: " + episode.lessonLearned());
            }
            if (episode.suggestedAction() != null && !episode.suggestedAction().isEmpty()) {
                text.add("   Suggestion: " + episode.suggestedAction());
            }
        }
        return text.toString();
    }

    /**
     * @param stored the stored lesson episode
     * @return the {@code record_lesson} answer
     */
    public static String lessonRecorded(Episode stored) {
        return "Lesson recorded (id " + stored.episodeId() + ", importance " + stored.importance() + "): "
                + stored.lessonLearned();
    }

    /**
     * @param warnings the {@link FailureWarnings#format} text
     * @return the {@code get_warnings} answer
     */
    public static String warnings(String warnings) {
        return warnings == null || warnings.isEmpty() ? NO_WARNINGS : warnings;
    }

    static String twoDecimals(double score) {
        if (Double.isNaN(score) || Double.isInfinite(score)) {
            return String.valueOf(score);
        }
        return new BigDecimal(score).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
