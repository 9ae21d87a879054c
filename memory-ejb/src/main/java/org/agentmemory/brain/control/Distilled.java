package org.agentmemory.brain.control;

import java.util.Locale;
import java.util.Set;

/**
 * Durable knowledge distilled from a group of episodes (spec §12.1 {@code DistilledKnowledge}), after the confidence
 * rule (§12.2 step 5).
 *
 * @param title      at most 80 code points
 * @param body       markdown, at most {@value #MAX_BODY} code points
 * @param category   {@code lesson}, {@code decision}, {@code concept} or {@code note}
 * @param confidence 0..1
 */
public record Distilled(String title, String body, String category, double confidence) {

    /** The categories a page may have. */
    public static final Set<String> CATEGORIES = Set.of("lesson", "decision", "concept", "note");

    /** Below this confidence the category becomes {@code note} (spec §12.2 step 5). */
    public static final double LOW_CONFIDENCE = 0.3;

    /** Longest body, code points (spec §12.2 step 5). */
    public static final int MAX_BODY = 4000;

    /**
     * Applies the confidence rule and the limits to what a distiller answered.
     *
     * @param title      the title
     * @param body       the body
     * @param category   the category; an unknown one is {@code note}
     * @param confidence the confidence; clamped to 0..1, {@code NaN} is 0.5
     * @return the knowledge to archive
     */
    public static Distilled of(String title, String body, String category, double confidence) {
        double c = Double.isNaN(confidence) ? 0.5 : Math.max(0, Math.min(1, confidence));
        String cat = category == null ? "note" : category.strip().toLowerCase(Locale.ROOT);
        if (!CATEGORIES.contains(cat) || c < LOW_CONFIDENCE) {
            cat = "note";
        }
        String b = body == null ? "" : PageIds.cut(body.strip(), MAX_BODY);
        return new Distilled(PageIds.title(title, b), b, cat, c);
    }
}
