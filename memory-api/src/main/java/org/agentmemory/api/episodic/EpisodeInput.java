package org.agentmemory.api.episodic;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a caller supplies to record an episode (spec §10.3 {@code record_episode}); the service adds the id,
 * timestamps, failure flag, expiry, reflection and final importance. Use {@link #builder} for readable calls.
 *
 * @param namespace          where the episode belongs; required
 * @param situation          what the agent faced; required, not blank
 * @param actionTaken        what the agent did; required, not blank
 * @param outcome            how it ended; required
 * @param outcomeDetails     free text about the result, or {@code null}
 * @param errorType          a short error class (e.g. {@code timeout}), or {@code null}; a known type raises the
 *                           automatic importance by 2 (spec §10.2)
 * @param errorMessage       the error text, or {@code null}; drives the heuristic reflection (spec §10.4)
 * @param category           the kind of episode; {@code null} becomes {@link EpisodeCategory#TOOL_EXECUTION}
 * @param importance         1..10, or {@code null} for the automatic importance (spec §10.2); note that a
 *                           configured importance scorer overrides even an explicit value (spec §10.2)
 * @param relatedTools       tool names; {@code null} becomes empty; copied, unmodifiable
 * @param relatedEntities    entity names; {@code null} becomes empty; copied, unmodifiable
 * @param ttlDays            days until the episode expires, ≥ 0 (0 = never), or {@code null} for the
 *                           configured default (90 in the reference)
 * @param metadata           free JSON object; {@code null} becomes empty; copied (top level), unmodifiable
 * @param generateReflection whether to reflect on the episode (model, else heuristic); the reference's
 *                           default is {@code true}
 * @param lessonLearned      a lesson the caller states explicitly, or {@code null}. When set, no reflection
 *                           runs and the lesson is stored with {@link LessonSource#EXPLICIT} (this is how
 *                           {@code record_lesson} persists its lesson, fixing spec §13 #2)
 */
public record EpisodeInput(
        MemoryNamespace namespace,
        String situation,
        String actionTaken,
        EpisodeOutcome outcome,
        String outcomeDetails,
        String errorType,
        String errorMessage,
        EpisodeCategory category,
        Integer importance,
        List<String> relatedTools,
        List<String> relatedEntities,
        Integer ttlDays,
        Map<String, Object> metadata,
        boolean generateReflection,
        String lessonLearned)
        implements Serializable {

    /**
     * Checks the rules above, applies defaults and copies collections.
     *
     * @throws IllegalArgumentException naming the field, the rule and the bad value
     */
    public EpisodeInput {
        if (namespace == null) {
            throw new IllegalArgumentException("namespace is missing; an episode needs at least a tenant and an agent");
        }
        if (situation == null || situation.isBlank()) {
            throw new IllegalArgumentException(
                    "situation is " + (situation == null ? "missing" : "blank") + "; describe what the agent faced");
        }
        if (actionTaken == null || actionTaken.isBlank()) {
            throw new IllegalArgumentException(
                    "actionTaken is " + (actionTaken == null ? "missing" : "blank") + "; describe what the agent did");
        }
        if (outcome == null) {
            throw new IllegalArgumentException(
                    "outcome is missing; valid values are success, failure, partial and timeout");
        }
        if (category == null) {
            category = EpisodeCategory.TOOL_EXECUTION;
        }
        if (importance != null && (importance < Episode.MIN_IMPORTANCE || importance > Episode.MAX_IMPORTANCE)) {
            throw new IllegalArgumentException(
                    "importance is " + importance + "; it must be between " + Episode.MIN_IMPORTANCE + " and "
                            + Episode.MAX_IMPORTANCE + ", or absent for the automatic value");
        }
        if (ttlDays != null && ttlDays < 0) {
            throw new IllegalArgumentException(
                    "ttlDays is " + ttlDays + "; it must be 0 (never expires) or more days, or absent for the default");
        }
        relatedTools = relatedTools == null ? List.of() : List.copyOf(relatedTools);
        relatedEntities = relatedEntities == null ? List.of() : List.copyOf(relatedEntities);
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /**
     * Starts a builder with the required fields; everything else takes its default (no details, automatic
     * importance, default TTL, reflection on, no explicit lesson).
     *
     * @param namespace   where the episode belongs
     * @param situation   what the agent faced
     * @param actionTaken what the agent did
     * @param outcome     how it ended
     * @return the builder
     */
    public static Builder builder(
            MemoryNamespace namespace, String situation, String actionTaken, EpisodeOutcome outcome) {
        return new Builder(namespace, situation, actionTaken, outcome);
    }

    /** @return a builder holding this input's values, to derive a changed copy */
    public Builder toBuilder() {
        return new Builder(namespace, situation, actionTaken, outcome)
                .outcomeDetails(outcomeDetails)
                .errorType(errorType)
                .errorMessage(errorMessage)
                .category(category)
                .importance(importance)
                .relatedTools(relatedTools)
                .relatedEntities(relatedEntities)
                .ttlDays(ttlDays)
                .metadata(metadata)
                .generateReflection(generateReflection)
                .lessonLearned(lessonLearned);
    }

    /** Fluent construction of an {@link EpisodeInput}; {@link #build()} applies the record's checks. */
    public static final class Builder {
        private final MemoryNamespace namespace;
        private final String situation;
        private final String actionTaken;
        private final EpisodeOutcome outcome;
        private String outcomeDetails;
        private String errorType;
        private String errorMessage;
        private EpisodeCategory category;
        private Integer importance;
        private List<String> relatedTools;
        private List<String> relatedEntities;
        private Integer ttlDays;
        private Map<String, Object> metadata;
        private boolean generateReflection = true;
        private String lessonLearned;

        private Builder(MemoryNamespace namespace, String situation, String actionTaken, EpisodeOutcome outcome) {
            this.namespace = namespace;
            this.situation = situation;
            this.actionTaken = actionTaken;
            this.outcome = outcome;
        }

        /**
         * @param value free text about the result, or {@code null}
         * @return this builder
         */
        public Builder outcomeDetails(String value) {
            outcomeDetails = value;
            return this;
        }

        /**
         * @param value a short error class, or {@code null}
         * @return this builder
         */
        public Builder errorType(String value) {
            errorType = value;
            return this;
        }

        /**
         * @param value the error text, or {@code null}
         * @return this builder
         */
        public Builder errorMessage(String value) {
            errorMessage = value;
            return this;
        }

        /**
         * @param value the category, or {@code null} for tool_execution
         * @return this builder
         */
        public Builder category(EpisodeCategory value) {
            category = value;
            return this;
        }

        /**
         * @param value 1..10, or {@code null} for automatic
         * @return this builder
         */
        public Builder importance(Integer value) {
            importance = value;
            return this;
        }

        /**
         * @param value tool names, or {@code null}
         * @return this builder
         */
        public Builder relatedTools(List<String> value) {
            relatedTools = value;
            return this;
        }

        /**
         * @param value entity names, or {@code null}
         * @return this builder
         */
        public Builder relatedEntities(List<String> value) {
            relatedEntities = value;
            return this;
        }

        /**
         * @param value days ≥ 0 (0 = never), or {@code null} for the default
         * @return this builder
         */
        public Builder ttlDays(Integer value) {
            ttlDays = value;
            return this;
        }

        /**
         * @param value free JSON object, or {@code null}
         * @return this builder
         */
        public Builder metadata(Map<String, Object> value) {
            metadata = value;
            return this;
        }

        /**
         * @param value whether to reflect (default {@code true})
         * @return this builder
         */
        public Builder generateReflection(boolean value) {
            generateReflection = value;
            return this;
        }

        /**
         * @param value an explicit lesson, or {@code null}
         * @return this builder
         */
        public Builder lessonLearned(String value) {
            lessonLearned = value;
            return this;
        }

        /**
         * @return the input
         * @throws IllegalArgumentException when a value breaks a rule of {@link EpisodeInput}
         */
        public EpisodeInput build() {
            return new EpisodeInput(
                    namespace,
                    situation,
                    actionTaken,
                    outcome,
                    outcomeDetails,
                    errorType,
                    errorMessage,
                    category,
                    importance,
                    relatedTools,
                    relatedEntities,
                    ttlDays,
                    metadata,
                    generateReflection,
                    lessonLearned);
        }
    }
}
