package org.agentmemory.episodic.control;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeOutcome;

/**
 * Episode importance, 1..10 (spec §10.2): the automatic value from outcome and error type, and the
 * conversion of a scorer's [0, 1] score to an importance.
 */
public final class Importance {

    /**
     * The known error types, in the FIXED order used wherever the first match wins (spec §10.2, §10.3;
     * §13 #13: the reference iterated a set, in no defined order).
     */
    public static final List<String> KNOWN_ERROR_TYPES =
            List.of("timeout", "rate_limit", "permission", "connection", "validation");

    private Importance() {}

    /**
     * The automatic importance (spec §10.2 {@code _auto_importance}): 7 for FAILURE or TIMEOUT, 5 for
     * PARTIAL, 3 for SUCCESS; plus 2, capped at 10, when the lower-cased error type is a
     * {@linkplain #KNOWN_ERROR_TYPES known type}.
     *
     * @param outcome   the outcome; never {@code null}
     * @param errorType the error type, or {@code null}; compared case-insensitively (root locale), exactly
     * @return 3..9
     */
    public static int autoImportance(EpisodeOutcome outcome, String errorType) {
        int base = switch (outcome) {
            case FAILURE, TIMEOUT -> 7;
            case PARTIAL -> 5;
            case SUCCESS -> 3;
        };
        if (errorType != null && KNOWN_ERROR_TYPES.contains(errorType.toLowerCase(Locale.ROOT))) {
            base = Math.min(Episode.MAX_IMPORTANCE, base + 2);
        }
        return base;
    }

    /**
     * A scorer's score as importance (spec §10.2): {@code clamp(round(score × 10), 1, 10)}, where round is
     * round-half-to-even on the exact binary value of {@code score × 10} (Python's {@code round}; spec §13
     * #13): 0.25 → 2, 0.35 → 4.
     *
     * @param score a score, nominally in [0, 1]; values outside are clamped after rounding
     * @return 1..10
     * @throws IllegalArgumentException when the score is NaN or infinite (Python's {@code round} raises too)
     */
    public static int applyScorer(double score) {
        if (Double.isNaN(score) || Double.isInfinite(score)) {
            throw new IllegalArgumentException(
                    "importance score is " + score + "; it must be a finite number in [0, 1]");
        }
        BigDecimal rounded = new BigDecimal(score * 10).setScale(0, RoundingMode.HALF_EVEN);
        return clamp(rounded.max(BigDecimal.valueOf(Integer.MIN_VALUE))
                .min(BigDecimal.valueOf(Integer.MAX_VALUE))
                .intValue());
    }

    /**
     * @param importance any value
     * @return the value clamped to 1..10 (the {@code record_lesson} tool's rule, spec §10.9)
     */
    public static int clamp(int importance) {
        return Math.max(Episode.MIN_IMPORTANCE, Math.min(Episode.MAX_IMPORTANCE, importance));
    }
}
