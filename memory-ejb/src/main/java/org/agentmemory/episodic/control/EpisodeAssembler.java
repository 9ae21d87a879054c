package org.agentmemory.episodic.control;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.api.episodic.ReflectionResult;

/**
 * Builds the episode to store from what a caller supplied (spec §10.3 {@code record_episode}, steps 1–6;
 * embedding and storage, steps 7–9, are the caller's). Pure: the id, the clock and the reflection come in.
 *
 * <p>Typical use in a session bean:
 * <pre>
 * ReflectionOutcome reflection = EpisodeAssembler.needsReflection(input) ? reflector.reflect(input) : null;
 * Episode episode = EpisodeAssembler.assemble(input, reflection, scorer, UUID.randomUUID().toString(),
 *         Instant.now(), settings.episodicDefaultTtlDays());
 * float[] vector = embeddings.embed(TextNormalization.searchableText(episode));
 * </pre>
 * Call the reflector outside the transaction: a model call can take seconds.
 */
public final class EpisodeAssembler {

    private static final Logger LOG = Logger.getLogger(EpisodeAssembler.class.getName());

    private EpisodeAssembler() {}

    /**
     * @param input the caller's input
     * @return whether a reflector should run: {@code generateReflection} is set and no explicit lesson was given
     */
    public static boolean needsReflection(EpisodeInput input) {
        return input.generateReflection() && !hasExplicitLesson(input);
    }

    /**
     * Steps, in the reference's order:
     * <ol>
     * <li>importance = the explicit value, else {@link Importance#autoImportance};</li>
     * <li>isFailure = outcome ∈ {FAILURE, TIMEOUT};</li>
     * <li>ttl = {@code input.ttlDays()} if given, else {@code defaultTtlDays}; when ttl &gt; 0,
     * expiresAt = now + ttl × 24 h, else never;</li>
     * <li>lesson: an explicit {@code input.lessonLearned()} is stored with {@link LessonSource#EXPLICIT} and no
     * reflection text; otherwise the reflection's three fields and source when {@code reflection} is given
     * and {@code generateReflection} is set; otherwise none;</li>
     * <li>build the episode (createdAt = updatedAt = now, namespace copied);</li>
     * <li>scorer override: when a scorer is given, importance = {@link Importance#applyScorer} of its score,
     * overriding even an explicit importance; a scorer that throws (or returns NaN) is logged and ignored.</li>
     * </ol>
     *
     * @param input          the caller's input; never {@code null}
     * @param reflection     the reflector's outcome, or {@code null} for none
     * @param scorer         the importance scorer, or {@code null} for none
     * @param episodeId      the new episode's id (a UUID string); never {@code null}
     * @param now            the current instant; never {@code null}
     * @param defaultTtlDays days until expiry when the input gives none, ≥ 0 (0 = never; the reference's
     *                       default is 90)
     * @return the episode, ready to embed and store
     */
    public static Episode assemble(
            EpisodeInput input,
            ReflectionOutcome reflection,
            ImportanceScorer scorer,
            String episodeId,
            Instant now,
            int defaultTtlDays) {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(episodeId, "episodeId");
        Objects.requireNonNull(now, "now");
        if (defaultTtlDays < 0) {
            throw new IllegalArgumentException(
                    "defaultTtlDays is " + defaultTtlDays + "; it must be ≥ 0 (0 = never expires)");
        }
        int importance = input.importance() != null
                ? input.importance()
                : Importance.autoImportance(input.outcome(), input.errorType());
        boolean isFailure = input.outcome().isFailure();
        int ttl = input.ttlDays() != null ? input.ttlDays() : defaultTtlDays;
        Instant expiresAt = ttl > 0 ? now.plus(Duration.ofDays(ttl)) : null;

        String reflectionText = null;
        String lesson = null;
        String suggestion = null;
        LessonSource source = null;
        if (hasExplicitLesson(input)) {
            lesson = input.lessonLearned();
            source = LessonSource.EXPLICIT;
        } else if (reflection != null && input.generateReflection()) {
            ReflectionResult result = reflection.result();
            reflectionText = result.reflection();
            lesson = result.lessonLearned();
            suggestion = result.suggestedAction();
            source = reflection.source();
        }

        Episode episode = new Episode(
                episodeId,
                input.namespace(),
                now,
                now,
                expiresAt,
                input.situation(),
                input.actionTaken(),
                input.outcome(),
                input.outcomeDetails(),
                input.errorType(),
                input.errorMessage(),
                reflectionText,
                lesson,
                suggestion,
                source,
                input.category(),
                importance,
                isFailure,
                input.relatedTools(),
                input.relatedEntities(),
                input.metadata());

        if (scorer != null) {
            try {
                episode = episode.withImportance(Importance.applyScorer(scorer.score(episode)));
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "Importance scorer " + scorer.getClass().getName() + " failed for episode " + episodeId
                                + "; keeping importance " + importance,
                        e);
            }
        }
        return episode;
    }

    private static boolean hasExplicitLesson(EpisodeInput input) {
        return input.lessonLearned() != null && !input.lessonLearned().isBlank();
    }
}
