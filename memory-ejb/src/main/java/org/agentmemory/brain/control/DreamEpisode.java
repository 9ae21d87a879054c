package org.agentmemory.brain.control;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the dream cycle reads of an episode (spec §12.2).
 *
 * @param episodeId    the episode
 * @param createdAt    when it was recorded (the watermark's unit)
 * @param category     its category value, e.g. {@code tool_execution}
 * @param relatedTools tool names; never {@code null}
 * @param situation    what the agent faced
 * @param actionTaken  what it did
 * @param lesson       its lesson, or {@code null} / blank
 * @param vector       its stored embedding, or {@code null} when it has none yet
 */
public record DreamEpisode(
        String episodeId,
        Instant createdAt,
        String category,
        List<String> relatedTools,
        String situation,
        String actionTaken,
        String lesson,
        float[] vector) {

    public DreamEpisode {
        Objects.requireNonNull(episodeId, "episodeId");
        Objects.requireNonNull(createdAt, "createdAt");
        relatedTools = relatedTools == null ? List.of() : List.copyOf(relatedTools);
    }

    /** @return whether it carries a lesson */
    public boolean hasLesson() {
        return lesson != null && !lesson.isBlank();
    }
}
