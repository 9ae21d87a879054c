package org.agentmemory.context.control;

import java.util.Locale;

/**
 * Configuration of the unified long-term memory layer (spec §9.1). Build one with {@link #builder()} or
 * take {@link #defaults()}; the canonical constructor takes every value as explicitly set.
 *
 * <p>Validation (each failure an {@link IllegalArgumentException} naming the field, the rule and the value):
 * {@code maxContextTokens}, {@code episodicMaxWarnings}, {@code skillMaxContext} ≥ 0; each weight in
 * [0, 1]; without the brain, {@code episodicWeight + skillWeight + conversationWeight} = 1.0 ± 0.01; with
 * the brain, all four weights sum to 1.0 ± 0.01.
 *
 * @param enableEpisodic      subsystem toggle (default true; not consulted: presence of the subsystem decides)
 * @param enableSkills        subsystem toggle (default true; not consulted)
 * @param enableConversation  subsystem toggle (default true; not consulted)
 * @param enableBrain         whether brain knowledge joins the budget and the weight sum (default false)
 * @param maxContextTokens    total budget of the assembled context, estimated tokens (default 2000)
 * @param episodicMaxWarnings episodic warnings retrieved (default 3)
 * @param skillMaxContext     skills retrieved (default 3)
 * @param episodicWeight      share of the budget for episodic warnings (default 0.3)
 * @param skillWeight         share for skills (default 0.3)
 * @param conversationWeight  share for the conversation (default 0.4; validated but never used to allocate:
 *                            the conversation gets what is left, spec §9.2)
 * @param brainWeight         share for brain knowledge (default 0.20)
 * @param skillAutoExtract    extract skills from successful interactions (default false)
 */
public record MemoryConfig(
        boolean enableEpisodic,
        boolean enableSkills,
        boolean enableConversation,
        boolean enableBrain,
        int maxContextTokens,
        int episodicMaxWarnings,
        int skillMaxContext,
        double episodicWeight,
        double skillWeight,
        double conversationWeight,
        double brainWeight,
        boolean skillAutoExtract) {

    /** Allowed distance of the weight sum from 1.0. */
    public static final double WEIGHT_TOLERANCE = 0.01;

    private static final MemoryConfig DEFAULTS = builder().build();

    public MemoryConfig {
        nonNegative("maxContextTokens", maxContextTokens);
        nonNegative("episodicMaxWarnings", episodicMaxWarnings);
        nonNegative("skillMaxContext", skillMaxContext);
        unitInterval("episodicWeight", episodicWeight);
        unitInterval("skillWeight", skillWeight);
        unitInterval("conversationWeight", conversationWeight);
        unitInterval("brainWeight", brainWeight);
        double total = episodicWeight + skillWeight + conversationWeight + (enableBrain ? brainWeight : 0.0);
        if (Math.abs(total - 1.0) > WEIGHT_TOLERANCE) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "MemoryConfig weights must sum to 1.0 (±%s) but %s sum to %.3f (episodicWeight=%s, skillWeight=%s, "
                            + "conversationWeight=%s%s); adjust them to add up to 1.0",
                    WEIGHT_TOLERANCE,
                    enableBrain
                            ? "episodic + skill + conversation + brain"
                            : "episodic + skill + conversation (brain disabled)",
                    total,
                    episodicWeight,
                    skillWeight,
                    conversationWeight,
                    enableBrain ? ", brainWeight=" + brainWeight : ""));
        }
    }

    /** @return every default of spec §9.1 (brain disabled; weights 0.3 / 0.3 / 0.4, brain 0.20) */
    public static MemoryConfig defaults() {
        return DEFAULTS;
    }

    /** @return a builder holding the defaults with no weight set */
    public static Builder builder() {
        return new Builder();
    }

    private static void nonNegative(String field, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("MemoryConfig." + field + " must be >= 0 but was " + value);
        }
    }

    private static void unitInterval(String field, double value) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(
                    "MemoryConfig." + field + " must be between 0.0 and 1.0 but was " + value);
        }
    }

    /**
     * Builds a {@link MemoryConfig}, remembering which weights were set. With the brain enabled and NO
     * weight set, the weights are rebalanced to 0.25 / 0.25 / 0.30 / 0.20 (episodic / skill / conversation /
     * brain); otherwise every unset weight takes its default (0.3 / 0.3 / 0.4 / 0.20).
     */
    public static final class Builder {
        private boolean enableEpisodic = true;
        private boolean enableSkills = true;
        private boolean enableConversation = true;
        private boolean enableBrain;
        private int maxContextTokens = 2000;
        private int episodicMaxWarnings = 3;
        private int skillMaxContext = 3;
        private Double episodicWeight;
        private Double skillWeight;
        private Double conversationWeight;
        private Double brainWeight;
        private boolean skillAutoExtract;

        private Builder() {}

        /** @return this builder */
        public Builder enableEpisodic(boolean value) {
            enableEpisodic = value;
            return this;
        }

        /** @return this builder */
        public Builder enableSkills(boolean value) {
            enableSkills = value;
            return this;
        }

        /** @return this builder */
        public Builder enableConversation(boolean value) {
            enableConversation = value;
            return this;
        }

        /** @return this builder */
        public Builder enableBrain(boolean value) {
            enableBrain = value;
            return this;
        }

        /** @param value estimated tokens (≥ 0) @return this builder */
        public Builder maxContextTokens(int value) {
            maxContextTokens = value;
            return this;
        }

        /** @return this builder */
        public Builder episodicMaxWarnings(int value) {
            episodicMaxWarnings = value;
            return this;
        }

        /** @return this builder */
        public Builder skillMaxContext(int value) {
            skillMaxContext = value;
            return this;
        }

        /** @param value share in [0, 1], or {@code null} for "not set" @return this builder */
        public Builder episodicWeight(Double value) {
            episodicWeight = value;
            return this;
        }

        /** @param value share in [0, 1], or {@code null} for "not set" @return this builder */
        public Builder skillWeight(Double value) {
            skillWeight = value;
            return this;
        }

        /** @param value share in [0, 1], or {@code null} for "not set" @return this builder */
        public Builder conversationWeight(Double value) {
            conversationWeight = value;
            return this;
        }

        /** @param value share in [0, 1], or {@code null} for "not set" @return this builder */
        public Builder brainWeight(Double value) {
            brainWeight = value;
            return this;
        }

        /** @return this builder */
        public Builder skillAutoExtract(boolean value) {
            skillAutoExtract = value;
            return this;
        }

        /**
         * @return the configuration
         * @throws IllegalArgumentException when a value breaks a rule of {@link MemoryConfig}
         */
        public MemoryConfig build() {
            boolean noneSet =
                    episodicWeight == null && skillWeight == null && conversationWeight == null && brainWeight == null;
            boolean rebalance = enableBrain && noneSet;
            return new MemoryConfig(
                    enableEpisodic,
                    enableSkills,
                    enableConversation,
                    enableBrain,
                    maxContextTokens,
                    episodicMaxWarnings,
                    skillMaxContext,
                    weight(episodicWeight, rebalance ? 0.25 : 0.3),
                    weight(skillWeight, rebalance ? 0.25 : 0.3),
                    weight(conversationWeight, rebalance ? 0.30 : 0.4),
                    weight(brainWeight, 0.20),
                    skillAutoExtract);
        }

        private static double weight(Double set, double fallback) {
            return set == null ? fallback : set;
        }
    }
}
