package org.agentmemory.api.episodic;

import java.io.Serializable;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One remembered experience of an agent (spec §10.1 {@code EpisodicMemory}), as callers see it. The
 * embedding vector is deliberately not part of this transfer record: it is an index detail of the
 * service (384 floats that no caller needs).
 *
 * @param episodeId       UUID string; never {@code null}
 * @param namespace       tenant, agent and the optional user, session, room and crew; never {@code null}
 * @param createdAt       when it was recorded (UTC); never {@code null}
 * @param updatedAt       when it last changed (UTC); never {@code null}
 * @param expiresAt       when it expires (UTC), or {@code null} for never; expired means
 *                        {@code expiresAt < now} (spec §10.7 {@code delete_expired})
 * @param situation       what the agent faced; never {@code null}
 * @param actionTaken     what the agent did; never {@code null}
 * @param outcome         how it ended; never {@code null}
 * @param outcomeDetails  free text about the result, or {@code null}
 * @param errorType       a short error class such as {@code timeout}, or {@code null}
 * @param errorMessage    the error text, or {@code null}
 * @param reflection      1–2 sentences of reflection, or {@code null}
 * @param lessonLearned   the lesson, or {@code null}
 * @param suggestedAction what to do next time, or {@code null}
 * @param lessonSource    where {@code lessonLearned} came from, or {@code null} when unknown (episodes
 *                        imported from the reference system) or when there is no lesson
 * @param category        the kind of episode; {@code null} becomes {@link EpisodeCategory#TOOL_EXECUTION}
 * @param importance      1..10 (spec §10.2)
 * @param isFailure       whether it is a failure episode (set from the outcome when recorded:
 *                        {@link EpisodeOutcome#isFailure()})
 * @param relatedTools    tool names; {@code null} becomes empty; copied, unmodifiable
 * @param relatedEntities entity names; {@code null} becomes empty; copied, unmodifiable
 * @param metadata        free JSON object (values: String, Number, Boolean, null, List, Map); {@code null}
 *                        becomes empty; copied (top level), unmodifiable. The key {@value #CONSOLIDATED_INTO}
 *                        marks an episode already distilled into a brain page (spec §10.3
 *                        {@code mark_consolidated}).
 */
@Schema(description = "One remembered experience of an agent, as stored (without its embedding vector).")
public record Episode(
        @Schema(description = "UUID of the episode; never null.")
        String episodeId,

        @Schema(description = "Tenant, agent and the optional user, session, room and crew; never null.")
        MemoryNamespace namespace,

        @Schema(description = "When it was recorded, ISO-8601 UTC; never null.")
        Instant createdAt,

        @Schema(description = "When it last changed, ISO-8601 UTC; never null.")
        Instant updatedAt,

        @Schema(
                description = "When it expires, ISO-8601 UTC (createdAt + ttlDays, by default"
                        + " memory.episodic.default-ttl-days = 90), or null for never. Expired episodes are never recalled"
                        + " and are deleted every 15 minutes.")
        Instant expiresAt,

        @Schema(description = "What the agent faced; never null.")
        String situation,

        @Schema(description = "What the agent did; never null.")
        String actionTaken,

        @Schema(description = "How it ended; never null.") EpisodeOutcome outcome,

        @Schema(description = "Free text about the result, or null.")
        String outcomeDetails,

        @Schema(description = "A short error class such as timeout, or null.")
        String errorType,

        @Schema(description = "The error text, or null.") String errorMessage,

        @Schema(
                description = "One or two sentences of reflection (by the reflection model, else the heuristic),"
                        + " or null.")
        String reflection,

        @Schema(description = "The lesson, or null.") String lessonLearned,

        @Schema(description = "What to do next time, or null.")
        String suggestedAction,

        @Schema(
                description = "Where lessonLearned came from, or null when unknown (imported episodes) or when there"
                        + " is no lesson.")
        LessonSource lessonSource,

        @Schema(description = "The kind of episode; tool_execution when none was given.")
        EpisodeCategory category,

        @Schema(description = "Importance, 1 to 10.") int importance,

        @Schema(description = "Whether it is a failure episode: outcome failure or timeout.")
        boolean isFailure,

        @Schema(description = "Tool names; never null (empty when none).")
        List<String> relatedTools,

        @Schema(description = "Entity names; never null (empty when none).")
        List<String> relatedEntities,

        @Schema(
                description = "Free JSON object; never null. The key consolidated_into names the brain page the"
                        + " episode was distilled into (POST /episodes/consolidated).")
        Map<String, Object> metadata)
        implements Serializable {

    /** Lowest importance. */
    public static final int MIN_IMPORTANCE = 1;
    /** Highest importance. */
    public static final int MAX_IMPORTANCE = 10;
    /** Metadata key naming the brain page an episode was consolidated into (spec §10.3, §12.2). */
    public static final String CONSOLIDATED_INTO = "consolidated_into";
    /**
     * The reference heuristic's lesson for every SUCCESS (spec §10.4). Used only to recognise heuristic
     * lessons on episodes whose {@code lessonSource} is unknown (see {@link #isLessonBearing()}).
     */
    public static final String HEURISTIC_SUCCESS_LESSON = "Approach worked; remember this pattern";

    /**
     * Checks required fields, applies defaults and copies collections.
     *
     * @throws NullPointerException     when a required field is {@code null}
     * @throws IllegalArgumentException when {@code importance} is outside 1..10
     */
    public Episode {
        Objects.requireNonNull(episodeId, "episodeId");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        Objects.requireNonNull(situation, "situation");
        Objects.requireNonNull(actionTaken, "actionTaken");
        Objects.requireNonNull(outcome, "outcome");
        if (category == null) {
            category = EpisodeCategory.TOOL_EXECUTION;
        }
        if (importance < MIN_IMPORTANCE || importance > MAX_IMPORTANCE) {
            throw new IllegalArgumentException("importance is " + importance + "; it must be between " + MIN_IMPORTANCE
                    + " and " + MAX_IMPORTANCE + " (episode " + episodeId + ")");
        }
        relatedTools = relatedTools == null ? List.of() : List.copyOf(relatedTools);
        relatedEntities = relatedEntities == null ? List.of() : List.copyOf(relatedEntities);
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /**
     * The text that is embedded and full-text indexed (spec §10.1 {@code searchable_text}):
     * {@code situation | actionTaken}, plus {@code  | lessonLearned} when the lesson is not empty.
     * The service applies NFC before indexing (see the episodic control package).
     *
     * @return the text, separator {@code " | "}
     */
    public String searchableText() {
        String text = situation + " | " + actionTaken;
        return lessonLearned == null || lessonLearned.isEmpty() ? text : text + " | " + lessonLearned;
    }

    /**
     * Whether this episode carries a lesson worth consolidating (the fix of spec §13 #7). True when the
     * lesson is not blank and:
     * <ul>
     * <li>it came from a {@linkplain LessonSource#MODEL model} or was {@linkplain LessonSource#EXPLICIT
     * stated by a caller}; or</li>
     * <li>it came from the {@linkplain LessonSource#HEURISTIC heuristic} and the outcome is not
     * {@link EpisodeOutcome#SUCCESS} (a failure, timeout or partial success says something specific, the
     * generic success lesson says nothing); or</li>
     * <li>its source is unknown ({@code null}, e.g. imported from the reference system) and it is not the
     * heuristic's success lesson {@value #HEURISTIC_SUCCESS_LESSON} on a SUCCESS.</li>
     * </ul>
     *
     * @return whether the lesson counts
     */
    @Schema(
            description =
                    "Whether the episode carries a lesson worth consolidating: lessonLearned is not blank and"
                            + " came from a model or a caller, or from the heuristic on an outcome other than success (with an"
                            + " unknown source: unless it is the heuristic's generic success lesson). Derived from the other fields.")
    public boolean isLessonBearing() {
        if (lessonLearned == null || lessonLearned.isBlank()) {
            return false;
        }
        if (lessonSource == null) {
            return !(outcome == EpisodeOutcome.SUCCESS && HEURISTIC_SUCCESS_LESSON.equals(lessonLearned.strip()));
        }
        return lessonSource != LessonSource.HEURISTIC || outcome != EpisodeOutcome.SUCCESS;
    }

    /**
     * The dream cycle's collection rule (spec §12.2 step 1, with §13 #7 fixed): important enough OR
     * {@linkplain #isLessonBearing() lesson-bearing}, AND not yet consolidated.
     *
     * @param importanceThreshold the minimum importance (the reference's default is 5)
     * @return whether the episode should be consolidated
     */
    public boolean isDreamEligible(int importanceThreshold) {
        return (importance >= importanceThreshold || isLessonBearing()) && !metadata.containsKey(CONSOLIDATED_INTO);
    }

    /**
     * @param now the current instant
     * @return whether {@code expiresAt} is set and strictly before {@code now}
     */
    public boolean isExpiredAt(Instant now) {
        return expiresAt != null && expiresAt.isBefore(now);
    }

    /**
     * @param newImportance 1..10
     * @return a copy with the importance replaced
     */
    public Episode withImportance(int newImportance) {
        return new Episode(
                episodeId,
                namespace,
                createdAt,
                updatedAt,
                expiresAt,
                situation,
                actionTaken,
                outcome,
                outcomeDetails,
                errorType,
                errorMessage,
                reflection,
                lessonLearned,
                suggestedAction,
                lessonSource,
                category,
                newImportance,
                isFailure,
                relatedTools,
                relatedEntities,
                metadata);
    }

    /**
     * @param newMetadata the metadata ({@code null} becomes empty)
     * @return a copy with the metadata replaced
     */
    public Episode withMetadata(Map<String, Object> newMetadata) {
        return new Episode(
                episodeId,
                namespace,
                createdAt,
                updatedAt,
                expiresAt,
                situation,
                actionTaken,
                outcome,
                outcomeDetails,
                errorType,
                errorMessage,
                reflection,
                lessonLearned,
                suggestedAction,
                lessonSource,
                category,
                importance,
                isFailure,
                relatedTools,
                relatedEntities,
                newMetadata);
    }
}
