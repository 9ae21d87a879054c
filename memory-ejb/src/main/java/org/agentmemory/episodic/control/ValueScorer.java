package org.agentmemory.episodic.control;

import java.util.regex.Pattern;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.platform.text.CodePoints;

/**
 * The value scorer ported from AgentCoreMemory (spec §10.2), with the exact reference weights. The score
 * starts at 0 and is:
 * <ul>
 * <li>+{@value #OUTCOME_WEIGHT} for SUCCESS, −0.5 × {@value #OUTCOME_WEIGHT} for FAILURE (TIMEOUT and
 * PARTIAL add nothing);</li>
 * <li>+{@value #TOOL_USAGE_WEIGHT} when there are related tools;</li>
 * <li>+{@value #QUERY_LENGTH_WEIGHT} when the situation has more than 5 whitespace-separated words;</li>
 * <li>+{@value #RESPONSE_LENGTH_WEIGHT} when the outcome details have more than 100 code points;</li>
 * <li>+0.5 × {@value #FEEDBACK_WEIGHT} when the lesson is not empty (any source: the reference's rule);</li>
 * </ul>
 * clamped to [0, 1]. An episode is valuable when its score is ≥ {@value #THRESHOLD}.
 */
public final class ValueScorer implements ImportanceScorer {

    /** Weight of the outcome. */
    public static final double OUTCOME_WEIGHT = 0.3;
    /** Weight of tool usage. */
    public static final double TOOL_USAGE_WEIGHT = 0.2;
    /** Weight of a long situation (query). */
    public static final double QUERY_LENGTH_WEIGHT = 0.1;
    /** Weight of long outcome details (response). */
    public static final double RESPONSE_LENGTH_WEIGHT = 0.2;
    /** Weight of feedback (a lesson). */
    public static final double FEEDBACK_WEIGHT = 0.3;
    /** Minimum score of a valuable episode. */
    public static final double THRESHOLD = 0.4;

    // Python's str.split(): runs of Unicode whitespace, leading and trailing ignored.
    private static final Pattern WHITESPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

    @Override
    public double score(Episode episode) {
        double score = 0.0;
        if (episode.outcome() == EpisodeOutcome.SUCCESS) {
            score += OUTCOME_WEIGHT;
        } else if (episode.outcome() == EpisodeOutcome.FAILURE) {
            score -= 0.5 * OUTCOME_WEIGHT;
        }
        if (!episode.relatedTools().isEmpty()) {
            score += TOOL_USAGE_WEIGHT;
        }
        if (wordCount(episode.situation()) > 5) {
            score += QUERY_LENGTH_WEIGHT;
        }
        if (CodePoints.length(episode.outcomeDetails()) > 100) {
            score += RESPONSE_LENGTH_WEIGHT;
        }
        if (episode.lessonLearned() != null && !episode.lessonLearned().isEmpty()) {
            score += 0.5 * FEEDBACK_WEIGHT;
        }
        return Math.max(0.0, Math.min(1.0, score));
    }

    /**
     * @param episode the episode
     * @return whether {@link #score} is at least {@value #THRESHOLD}
     */
    public boolean isValuable(Episode episode) {
        return score(episode) >= THRESHOLD;
    }

    static int wordCount(String text) {
        String stripped =
                text == null ? "" : WHITESPACE.matcher(text).replaceAll(" ").strip();
        return stripped.isEmpty() ? 0 : stripped.split(" ").length;
    }
}
