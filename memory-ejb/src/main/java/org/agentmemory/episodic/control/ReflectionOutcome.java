package org.agentmemory.episodic.control;

import java.util.Objects;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.api.episodic.ReflectionResult;

/**
 * What a {@link Reflector} produced and where it came from.
 *
 * @param result the reflection; never {@code null}
 * @param source {@link LessonSource#MODEL} when a model's answer was parsed, {@link LessonSource#HEURISTIC}
 *               when the heuristic table produced it (directly or as fallback); never {@code null}
 */
public record ReflectionOutcome(ReflectionResult result, LessonSource source) {

    /**
     * @throws NullPointerException when a component is {@code null}
     */
    public ReflectionOutcome {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(source, "source");
    }
}
