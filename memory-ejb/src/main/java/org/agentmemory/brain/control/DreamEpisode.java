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
 * @param turnRefs     {@code turn:<conversation>/<turn>} references of the conversation turns it came from; never
 *                     {@code null}
 */
public record DreamEpisode(
        String episodeId,
        Instant createdAt,
        String category,
        List<String> relatedTools,
        String situation,
        String actionTaken,
        String lesson,
        float[] vector,
        List<String> turnRefs) {

    public DreamEpisode {
        Objects.requireNonNull(episodeId, "episodeId");
        Objects.requireNonNull(createdAt, "createdAt");
        relatedTools = relatedTools == null ? List.of() : List.copyOf(relatedTools);
        turnRefs = turnRefs == null ? List.of() : List.copyOf(turnRefs);
    }

    /** An episode that came from no conversation turn. */
    public DreamEpisode(
            String episodeId,
            Instant createdAt,
            String category,
            List<String> relatedTools,
            String situation,
            String actionTaken,
            String lesson,
            float[] vector) {
        this(episodeId, createdAt, category, relatedTools, situation, actionTaken, lesson, vector, List.of());
    }

    /** @return its evidence references: {@code episode:<id>}, then its turn references */
    public List<String> evidence() {
        List<String> refs = new java.util.ArrayList<>(1 + turnRefs.size());
        refs.add("episode:" + episodeId);
        refs.addAll(turnRefs);
        return refs;
    }

    /** @return whether it carries a lesson */
    public boolean hasLesson() {
        return lesson != null && !lesson.isBlank();
    }
}
