package org.agentmemory.compaction.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.CompactionState;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec §4: EWMA calibration, commit folding and the provider's prompt tokens. */
class CalibrationTest {

    /** A clock in a far-from-UTC zone with nanoseconds, to show updatedAt is UTC and microsecond precision. */
    private static final Clock CLOCK =
            Clock.fixed(Instant.parse("2026-05-01T09:30:00.123456789Z"), ZoneId.of("Pacific/Chatham"));

    private static final Instant NOW_MICROS = Instant.parse("2026-05-01T09:30:00.123456Z");

    @Nested
    class ApplyUsage {

        /**
         * Each row folds a sequence of "estimate:provider" pairs into a fresh state.
         * Expected values are computed by hand: first sample = ratio, then 0.2·ratio + 0.8·old, clamped.
         */
        @ParameterizedTest(name = "{0} -> {1} after {2} samples")
        @CsvSource(
                delimiter = '|',
                value = {
                    // first sample is the ratio itself
                    "1000:1100                          | 1.1    | 1",
                    // then the moving average: 0.2*1.5 + 0.8*1.1 = 1.18; 0.2*0.5 + 0.8*1.18 = 1.044
                    "1000:1100, 1000:1500, 2000:1000    | 1.044  | 3",
                    // equal counts converge on 1
                    "500:500, 500:500, 500:500          | 1.0    | 3",
                    // the first sample is clamped too, both ways
                    "100:500                            | 2.0    | 1",
                    "1000:100                           | 0.5    | 1",
                    // after a clamped first sample: 0.2*1 + 0.8*2 = 1.8
                    "100:500, 100:100                   | 1.8    | 2",
                    // 0.2*0.1 + 0.8*0.5 = 0.42, clamped up to 0.5
                    "1000:100, 1000:100                 | 0.5    | 2",
                    // 0.2*10 + 0.8*1.9 = 3.52, clamped down to 2.0
                    "1000:1900, 100:1000                | 2.0    | 2",
                    // degenerate samples are skipped without counting: zero, negative, missing
                    "0:1000, -5:1000, 1000:0, 1000:-3, 1000:null, 1000:1200 | 1.2 | 1",
                    "1000:1200, 0:5000, 1000:null, 1000:1700 | 1.3 | 2",
                    // large numbers (long range) keep full precision in the ratio
                    "4000000000:6000000000              | 1.5    | 1"
                })
        void foldsSequences(String sequence, double expectedCalibration, int expectedSamples) {
            CompactionState state = CompactionState.initial("o200k_base");
            for (String pair : sequence.split(",")) {
                String[] parts = pair.trim().split(":");
                long estimate = Long.parseLong(parts[0]);
                Long provider = parts[1].equals("null") ? null : Long.valueOf(parts[1]);
                state = Calibration.applyUsage(state, estimate, provider, CLOCK);
            }
            assertThat(state.calibration()).isCloseTo(expectedCalibration, within(1e-12));
            assertThat(state.samples()).isEqualTo(expectedSamples);
        }

        @Test
        void returnsTheSameInstanceWhenNothingApplies() {
            CompactionState state = new CompactionState("o200k_base", 1.3, 4, "b", true, NOW_MICROS);
            assertThat(Calibration.applyUsage(state, 0, 100L, CLOCK)).isSameAs(state);
            assertThat(Calibration.applyUsage(state, -1, 100L, CLOCK)).isSameAs(state);
            assertThat(Calibration.applyUsage(state, 100, null, CLOCK)).isSameAs(state);
            assertThat(Calibration.applyUsage(state, 100, 0L, CLOCK)).isSameAs(state);
            assertThat(Calibration.applyUsage(state, 100, -100L, CLOCK)).isSameAs(state);
        }

        @Test
        void stampsUpdatedAtInUtcWithMicrosecondsAndKeepsOtherFields() {
            CompactionState before = new CompactionState("cl100k_base", 1.0, 2, "t-3", true, null);
            CompactionState after = Calibration.applyUsage(before, 1000, 1000L, CLOCK);
            assertThat(after.updatedAt()).isEqualTo(NOW_MICROS);
            assertThat(after.toMap()).containsEntry("updated_at", "2026-05-01T09:30:00.123456Z");
            assertThat(after.tokenizer()).isEqualTo("cl100k_base");
            assertThat(after.boundaryTurnId()).isEqualTo("t-3");
            assertThat(after.stage2Needed()).isTrue();
            assertThat(after.samples()).isEqualTo(3);
        }

        @Test
        void samplesSaturateInsteadOfOverflowing() {
            CompactionState state = new CompactionState("o200k_base", 1.0, Integer.MAX_VALUE, null, false, null);
            assertThat(Calibration.applyUsage(state, 100, 100L, CLOCK).samples())
                    .isEqualTo(Integer.MAX_VALUE);
        }

        @Test
        void usesTheStoredCalibrationAsTheOldValue() {
            CompactionState stored = new CompactionState("o200k_base", 1.5, 9, null, false, null);
            // 0.2 * 1.0 + 0.8 * 1.5 = 1.4
            assertThat(Calibration.applyUsage(stored, 200, 200L, CLOCK).calibration())
                    .isCloseTo(1.4, within(1e-12));
        }
    }

    @Nested
    class ApplyCommit {

        @Test
        void startsFromAFreshStateForTheTokenizer() {
            CompactionState state =
                    Calibration.applyCommit(null, new CompactionCommit(1000, "t-7", false), "o200k_base", 1200L, CLOCK);
            assertThat(state).isEqualTo(new CompactionState("o200k_base", 1.2, 1, "t-7", false, NOW_MICROS));
        }

        @Test
        void startsFromAFreshStateEvenWithoutUsage() {
            CompactionState state =
                    Calibration.applyCommit(null, new CompactionCommit(0, null, true), "heuristic", null, CLOCK);
            assertThat(state).isEqualTo(new CompactionState("heuristic", 1.0, 0, null, true, null));
        }

        @Test
        void commitBoundaryOverwritesWithoutComparingOrder() {
            CompactionState previous = new CompactionState("o200k_base", 1.0, 1, "t-9", false, null);
            CompactionState state =
                    Calibration.applyCommit(previous, new CompactionCommit(0, "t-1", false), "o200k_base", null, CLOCK);
            assertThat(state.boundaryTurnId()).isEqualTo("t-1");
        }

        @Test
        void nullCommitBoundaryKeepsTheStoredOne() {
            CompactionState previous = new CompactionState("o200k_base", 1.0, 1, "t-9", false, null);
            CompactionState state = Calibration.applyCommit(
                    previous, new CompactionCommit(100, null, false), "o200k_base", 120L, CLOCK);
            assertThat(state.boundaryTurnId()).isEqualTo("t-9");
        }

        @ParameterizedTest(name = "stored {0} + commit {1} = {2}")
        @CsvSource({"false, false, false", "false, true, true", "true, false, true", "true, true, true"})
        void stage2NeededIsSticky(boolean stored, boolean committed, boolean expected) {
            CompactionState previous = new CompactionState("o200k_base", 1.0, 0, null, stored, null);
            CompactionState state = Calibration.applyCommit(
                    previous, new CompactionCommit(100, null, committed), "o200k_base", 100L, CLOCK);
            assertThat(state.stage2Needed()).isEqualTo(expected);
        }

        @Test
        void stampsTheGivenTokenizerAndFoldsTheUsage() {
            CompactionState previous = new CompactionState("heuristic", 1.5, 3, "t-2", false, null);
            CompactionState state = Calibration.applyCommit(
                    previous, new CompactionCommit(1000, "t-4", false), "o200k_base", 1000L, CLOCK);
            // 0.2 * 1.0 + 0.8 * 1.5 = 1.4
            assertThat(state.tokenizer()).isEqualTo("o200k_base");
            assertThat(state.calibration()).isCloseTo(1.4, within(1e-12));
            assertThat(state.samples()).isEqualTo(4);
            assertThat(state.updatedAt()).isEqualTo(NOW_MICROS);
        }

        @Test
        void withoutUsageOnlyFlagsBoundaryAndTokenizerChange() {
            CompactionState previous =
                    new CompactionState("heuristic", 1.5, 3, "t-2", false, NOW_MICROS.minusSeconds(60));
            CompactionState state = Calibration.applyCommit(
                    previous, new CompactionCommit(1000, "t-4", true), "o200k_base", null, CLOCK);
            assertThat(state)
                    .isEqualTo(new CompactionState("o200k_base", 1.5, 3, "t-4", true, NOW_MICROS.minusSeconds(60)));
        }

        @Test
        void ignoresTelemetry() {
            CompactionState previous = CompactionState.initial("o200k_base");
            CompactionState a = Calibration.applyCommit(
                    previous, new CompactionCommit(500, "b", false, 0, 0), "o200k_base", 600L, CLOCK);
            CompactionState b = Calibration.applyCommit(
                    previous, new CompactionCommit(500, "b", false, 90_000, 17), "o200k_base", 600L, CLOCK);
            assertThat(a).isEqualTo(b);
        }

        @Test
        void requiresACommitAndATokenizer() {
            assertThatThrownBy(() -> Calibration.applyCommit(null, null, "o200k_base", null, CLOCK))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("commit");
            assertThatThrownBy(() ->
                            Calibration.applyCommit(null, new CompactionCommit(1, null, false), null, null, CLOCK))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("tokenizer");
        }
    }

    @Nested
    class ProviderPromptTokens {

        @Test
        void readsInputTokensFirst() {
            assertThat(Calibration.providerPromptTokens(usage(Map.of("input_tokens", 1234, "prompt_tokens", 99))))
                    .isEqualTo(1234L);
        }

        @Test
        void fallsBackToPromptTokens() {
            assertThat(Calibration.providerPromptTokens(usage(Map.of("prompt_tokens", 987L))))
                    .isEqualTo(987L);
        }

        @Test
        void fallsBackWhenInputTokensIsNullOrNotANumber() {
            Map<String, Object> nullInput = new HashMap<>();
            nullInput.put("input_tokens", null);
            nullInput.put("prompt_tokens", 55);
            assertThat(Calibration.providerPromptTokens(usage(nullInput))).isEqualTo(55L);
            assertThat(Calibration.providerPromptTokens(usage(Map.of("input_tokens", "300", "prompt_tokens", 66))))
                    .isEqualTo(66L);
        }

        @Test
        void keepsAZeroInputTokensWithoutFallingBack() {
            assertThat(Calibration.providerPromptTokens(usage(Map.of("input_tokens", 0, "prompt_tokens", 66))))
                    .isEqualTo(0L);
        }

        @Test
        void acceptsAnyNumberType() {
            assertThat(Calibration.providerPromptTokens(usage(Map.of("input_tokens", new BigInteger("4000000000")))))
                    .isEqualTo(4_000_000_000L);
            assertThat(Calibration.providerPromptTokens(usage(Map.of("input_tokens", new BigDecimal("321")))))
                    .isEqualTo(321L);
            assertThat(Calibration.providerPromptTokens(usage(Map.of("input_tokens", 12.9))))
                    .isEqualTo(12L);
        }

        @Test
        void answersNullWithoutUsableUsage() {
            assertThat(Calibration.providerPromptTokens(null)).isNull();
            assertThat(Calibration.providerPromptTokens(Map.of())).isNull();
            assertThat(Calibration.providerPromptTokens(Map.of("usage", "lots")))
                    .isNull();
            assertThat(Calibration.providerPromptTokens(usage(Map.of("output_tokens", 10))))
                    .isNull();
            assertThat(Calibration.providerPromptTokens(usage(Map.of("input_tokens", true))))
                    .isNull();
        }

        private Map<String, Object> usage(Map<String, Object> usage) {
            return Map.of("model", "m", "usage", usage);
        }
    }
}
