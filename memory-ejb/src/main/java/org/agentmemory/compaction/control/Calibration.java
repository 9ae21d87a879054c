package org.agentmemory.compaction.control;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.CompactionState;

/**
 * Calibration of token estimates against provider-reported prompt tokens (spec §4): an exponentially
 * weighted moving average of provider/estimate, clamped, plus the sticky compaction flags of a commit.
 */
public final class Calibration {

    /** Weight of the newest ratio in the moving average (spec §4 {@code EWMA_ALPHA}). */
    public static final double EWMA_ALPHA = 0.2;

    /** Lowest calibration (spec §4 {@code CALIBRATION_MIN}). */
    public static final double CALIBRATION_MIN = 0.5;

    /** Highest calibration (spec §4 {@code CALIBRATION_MAX}). */
    public static final double CALIBRATION_MAX = 2.0;

    private Calibration() {}

    /**
     * Folds one (estimate, provider) pair into the calibration (spec §4 {@code apply_usage}).
     * <ul>
     * <li>When {@code promptEstimate ≤ 0}, or {@code providerPromptTokens} is {@code null} or ≤ 0, nothing
     * applies and {@code state} itself is returned (the same instance).</li>
     * <li>Otherwise ratio = provider / estimate; the new calibration is the ratio for the first sample
     * ({@code samples == 0}), else 0.2 × ratio + 0.8 × old; it is clamped to [0.5, 2.0], the first sample
     * included; {@code samples} grows by one (saturating at {@link Integer#MAX_VALUE}); {@code updatedAt} is
     * {@code clock}'s instant truncated to microseconds. Other fields are kept.</li>
     * </ul>
     *
     * @param state                the current state; never {@code null}
     * @param promptEstimate       the bot's estimate of the round's prompt, in tokens of the state's counter
     * @param providerPromptTokens the provider's prompt tokens for the same round, or {@code null}
     * @param clock                the clock for {@code updatedAt}; never {@code null}
     * @return a new state, or {@code state} when the sample does not apply
     */
    public static CompactionState applyUsage(
            CompactionState state, long promptEstimate, Long providerPromptTokens, Clock clock) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(clock, "clock");
        if (promptEstimate <= 0 || providerPromptTokens == null || providerPromptTokens <= 0) {
            return state;
        }
        double ratio = (double) providerPromptTokens / (double) promptEstimate;
        double next = state.samples() == 0 ? ratio : EWMA_ALPHA * ratio + (1 - EWMA_ALPHA) * state.calibration();
        double clamped = Math.max(CALIBRATION_MIN, Math.min(CALIBRATION_MAX, next));
        int samples = state.samples() == Integer.MAX_VALUE ? Integer.MAX_VALUE : state.samples() + 1;
        return new CompactionState(
                state.tokenizer(), clamped, samples, state.boundaryTurnId(), state.stage2Needed(), now(clock));
    }

    /**
     * Folds a bot's commit into the stored state (spec §4 {@code apply_commit}):
     * <ol>
     * <li>base = {@code previous}, or {@link CompactionState#initial(String) a fresh state} for
     * {@code tokenizer};</li>
     * <li>{@link #applyUsage} with the commit's prompt estimate and the provider's prompt tokens;</li>
     * <li>boundary = the commit's when not {@code null}, else the stored one (never compared for order);</li>
     * <li>stage2Needed = stored OR commit (sticky, never cleared here);</li>
     * <li>tokenizer = {@code tokenizer}; the commit's telemetry fields are ignored.</li>
     * </ol>
     *
     * @param previous             the stored state, or {@code null} when the conversation has none
     * @param commit               the bot's commit for the round; never {@code null}
     * @param tokenizer            the name of the memory's counter; never {@code null}
     * @param providerPromptTokens the provider's prompt tokens for the round, or {@code null}
     * @param clock                the clock for {@code updatedAt}; never {@code null}
     * @return the new state; never {@code null}
     */
    public static CompactionState applyCommit(
            CompactionState previous,
            CompactionCommit commit,
            String tokenizer,
            Long providerPromptTokens,
            Clock clock) {
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(tokenizer, "tokenizer");
        CompactionState base = previous != null ? previous : CompactionState.initial(tokenizer);
        CompactionState updated = applyUsage(base, commit.promptEstimate(), providerPromptTokens, clock);
        String boundary = commit.boundaryTurnId() != null ? commit.boundaryTurnId() : updated.boundaryTurnId();
        boolean stage2Needed = updated.stage2Needed() || commit.stage2Needed();
        return new CompactionState(
                tokenizer, updated.calibration(), updated.samples(), boundary, stage2Needed, updated.updatedAt());
    }

    /**
     * The provider's prompt tokens reported in a turn's metadata (spec §4 "Provider prompt tokens"):
     * {@code metadata["usage"]["input_tokens"]}, falling back to {@code metadata["usage"]["prompt_tokens"]}.
     * Only {@link Number} values count (a non-number is treated as absent, so it falls back); a fractional
     * number is truncated. A present {@code input_tokens} of 0 is returned as 0 (no fallback), which
     * {@link #applyUsage} then ignores, as in the Python system.
     *
     * @param turnMetadata the turn's metadata, or {@code null}
     * @return the prompt tokens, or {@code null} when there is no usage map or neither key holds a number
     */
    public static Long providerPromptTokens(Map<String, ?> turnMetadata) {
        if (turnMetadata == null || !(turnMetadata.get("usage") instanceof Map<?, ?> usage)) {
            return null;
        }
        if (usage.get("input_tokens") instanceof Number n) {
            return n.longValue();
        }
        if (usage.get("prompt_tokens") instanceof Number n) {
            return n.longValue();
        }
        return null;
    }

    private static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
