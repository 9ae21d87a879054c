package org.agentmemory.compaction.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.CompactionState;
import org.junit.jupiter.api.Test;

class CompactionCommitsTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-05-01T09:30:00.123456789Z"), ZoneOffset.UTC);
    private static final Instant NOW = Instant.parse("2026-05-01T09:30:00.123456Z");

    @Test
    void firstCommitCreatesTheStateAndKeepsOtherMetadataKeysInOrder() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("topic", "billing");
        metadata.put("tasks", List.of("a"));
        CompactionCommits.Folded folded = CompactionCommits.fold(
                metadata,
                new CompactionCommit(1000, "t-3", false),
                "o200k_base",
                Map.of("usage", Map.of("input_tokens", 1100)),
                CLOCK);
        assertThat(folded.previous()).isNull();
        assertThat(folded.state()).isEqualTo(new CompactionState("o200k_base", 1.1, 1, "t-3", false, NOW));
        assertThat(List.copyOf(folded.metadata().keySet())).containsExactly("topic", "tasks", "compaction");
        assertThat(folded.metadata().get("compaction")).isEqualTo(folded.state().toMap());
        assertThat(folded.stage2Flipped()).isFalse();
        assertThat(metadata).doesNotContainKey("compaction");
    }

    @Test
    void secondSampleIsTheEwmaAndPromptTokensAreTheFallback() {
        Map<String, Object> stored =
                Map.of("compaction", new CompactionState("o200k_base", 1.1, 1, "t-3", false, null).toMap());
        CompactionCommits.Folded folded = CompactionCommits.fold(
                stored,
                new CompactionCommit(1000, null, false),
                "o200k_base",
                Map.of("usage", Map.of("prompt_tokens", 1300)),
                CLOCK);
        assertThat(folded.state().calibration())
                .isEqualTo(Calibration.EWMA_ALPHA * (1300.0 / 1000.0) + (1 - Calibration.EWMA_ALPHA) * 1.1);
        assertThat(folded.state().samples()).isEqualTo(2);
        assertThat(folded.state().boundaryTurnId()).isEqualTo("t-3");
    }

    @Test
    void stage2FlipsOnlyFromFalseToTrue() {
        CompactionCommit wants = new CompactionCommit(0, null, true, 9000, 4, 115712);
        assertThat(CompactionCommits.fold(Map.of(), wants, "o200k_base", null, CLOCK)
                        .stage2Flipped())
                .isTrue();
        Map<String, Object> alreadyTrue =
                Map.of("compaction", new CompactionState("o200k_base", 1.0, 0, null, true, null).toMap());
        CompactionCommits.Folded again = CompactionCommits.fold(alreadyTrue, wants, "o200k_base", null, CLOCK);
        assertThat(again.stage2Flipped()).isFalse();
        assertThat(again.state().stage2Needed()).isTrue();
        Map<String, Object> falseStored =
                Map.of("compaction", new CompactionState("o200k_base", 1.0, 0, null, false, null).toMap());
        assertThat(CompactionCommits.fold(falseStored, new CompactionCommit(0, null, false), "o200k_base", null, CLOCK)
                        .stage2Flipped())
                .isFalse();
        assertThat(CompactionCommits.fold(falseStored, wants, "o200k_base", null, CLOCK)
                        .stage2Flipped())
                .isTrue();
    }

    @Test
    void aDamagedStoredStateReadsWithDefaults() {
        Map<String, Object> damaged = Map.of("compaction", Map.of("calibration", "high", "stage2_needed", "yes"));
        CompactionState read = CompactionMetadata.read(damaged);
        assertThat(read).isEqualTo(new CompactionState("heuristic", 1.0, 0, null, false, null));
        assertThat(CompactionMetadata.read(Map.of("compaction", "not an object")))
                .isNull();
        assertThat(CompactionMetadata.read(null)).isNull();
        assertThat(CompactionMetadata.calibration(new CompactionState("o200k_base", -1.0, 3, null, false, null)))
                .isEqualTo(1.0);
        assertThat(CompactionMetadata.calibration(new CompactionState("o200k_base", 1.7, 3, null, false, null)))
                .isEqualTo(1.7);
        assertThat(CompactionMetadata.calibration(null)).isEqualTo(1.0);
    }

    @Test
    void commitsAreCheckedNamingTheField() {
        assertThatThrownBy(() -> CompactionCommits.check("compaction", new CompactionCommit(1, "bad\u0001id", false)))
                .isInstanceOf(InvalidInputException.class)
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("compaction.boundaryTurnId"));
        assertThatThrownBy(() -> CompactionCommits.check("compaction", new CompactionCommit(1, null, false, -1, 0, 0)))
                .satisfies(
                        e -> assertThat(((InvalidInputException) e).field()).isEqualTo("compaction.historyEstimate"));
        assertThatThrownBy(() -> CompactionCommits.check("compaction", new CompactionCommit(1, null, false, 0, -2, 0)))
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("compaction.droppedTurns"));
        assertThatThrownBy(() -> CompactionCommits.check("compaction", new CompactionCommit(1, null, false, 0, 0, -3)))
                .satisfies(e -> assertThat(((InvalidInputException) e).rule()).isEqualTo("min"));
    }
}
