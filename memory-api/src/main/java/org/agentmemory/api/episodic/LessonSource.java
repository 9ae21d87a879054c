package org.agentmemory.api.episodic;

import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Where an episode's {@code lessonLearned} came from. JSON and storage form: the lower-case {@link #value()}.
 * Not in the reference system: it exists to fix spec §13 #7 (heuristic lessons made every episode
 * dream-eligible); {@link Episode#isLessonBearing()} states the rule that uses it.
 */
@Schema(
        description = "Where an episode's lesson came from: model (a reflection model), heuristic (the built-in"
                + " table) or explicit (stated by a caller). Lower case in JSON.")
public enum LessonSource {
    /** A language model reflected on the episode (spec §10.4, LLM path). */
    MODEL,
    /** The heuristic table of spec §10.4 (pattern match on the error, or the per-outcome fallbacks). */
    HEURISTIC,
    /** A caller stated the lesson (the {@code record_lesson} tool, spec §10.9; fixes §13 #2). */
    EXPLICIT;

    /** @return the lower-case JSON and storage value, e.g. {@code "heuristic"} */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param value {@code "model"}, {@code "heuristic"} or {@code "explicit"}; case-insensitive
     * @return the source
     * @throws IllegalArgumentException when the value is {@code null} or unknown; the message lists the valid values
     */
    public static LessonSource fromValue(String value) {
        if (value != null) {
            String key = value.strip().toUpperCase(Locale.ROOT);
            for (LessonSource source : values()) {
                if (source.name().equals(key)) {
                    return source;
                }
            }
        }
        throw new IllegalArgumentException(
                "Unknown lesson source '" + value + "'; valid values are model, heuristic and explicit");
    }
}
