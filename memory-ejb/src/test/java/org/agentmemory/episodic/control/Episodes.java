package org.agentmemory.episodic.control;

import java.time.Instant;
import java.util.List;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.api.episodic.MemoryNamespace;

/** Test episodes with only the fields a test cares about. */
public final class Episodes {

    public static final MemoryNamespace NS = MemoryNamespace.of("acme", "planner");
    public static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private Episodes() {}

    public static Episode failure(
            String id,
            int importance,
            Instant createdAt,
            String situation,
            String lesson,
            String errorMessage,
            String suggestion,
            List<String> tools) {
        return new Episode(
                id,
                NS,
                createdAt,
                createdAt,
                null,
                situation,
                "act",
                EpisodeOutcome.FAILURE,
                null,
                null,
                errorMessage,
                null,
                lesson,
                suggestion,
                lesson == null ? null : LessonSource.MODEL,
                EpisodeCategory.TOOL_EXECUTION,
                importance,
                true,
                tools,
                null,
                null);
    }

    public static Episode of(String id, EpisodeOutcome outcome, String situation, String lesson, LessonSource source) {
        return new Episode(
                id,
                NS,
                T0,
                T0,
                null,
                situation,
                "act",
                outcome,
                null,
                null,
                null,
                null,
                lesson,
                null,
                source,
                EpisodeCategory.TOOL_EXECUTION,
                5,
                outcome.isFailure(),
                null,
                null,
                null);
    }
}
