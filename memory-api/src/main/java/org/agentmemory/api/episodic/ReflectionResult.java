package org.agentmemory.api.episodic;

import java.io.Serializable;

/**
 * What reflecting on an episode produced (spec §10.1, §10.4). All three fields are required. In a model's
 * JSON answer they are named {@code reflection}, {@code lesson_learned} and {@code suggested_action}.
 *
 * @param reflection      1–2 sentences on what happened and why; never {@code null}
 * @param lessonLearned   a reusable lesson, "max ~100 characters" (asked of the model, not enforced); never
 *                        {@code null}
 * @param suggestedAction one sentence on what to do next time; never {@code null}
 */
public record ReflectionResult(String reflection, String lessonLearned, String suggestedAction)
        implements Serializable {

    /**
     * @throws IllegalArgumentException when a field is {@code null}
     */
    public ReflectionResult {
        if (reflection == null || lessonLearned == null || suggestedAction == null) {
            throw new IllegalArgumentException("A reflection needs reflection, lessonLearned and suggestedAction; "
                    + "missing: " + (reflection == null ? "reflection " : "")
                    + (lessonLearned == null ? "lessonLearned " : "")
                    + (suggestedAction == null ? "suggestedAction" : "").strip());
        }
    }
}
