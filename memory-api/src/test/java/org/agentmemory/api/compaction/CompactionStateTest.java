package org.agentmemory.api.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spec §4 table: the persisted map form of the compaction state. */
class CompactionStateTest {

    private static final Instant UPDATED = Instant.parse("2026-05-01T09:30:00.123456Z");

    @Test
    void writesExactlyTheSpecKeysInTableOrder() {
        CompactionState state = new CompactionState("o200k_base", 1.25, 12, "t-41", true, UPDATED);
        Map<String, Object> map = state.toMap();
        assertThat(map.keySet())
                .containsExactly(
                        "tokenizer", "calibration", "samples", "boundary_turn_id", "stage2_needed", "updated_at");
        assertThat(map)
                .containsEntry("tokenizer", "o200k_base")
                .containsEntry("calibration", 1.25)
                .containsEntry("samples", 12)
                .containsEntry("boundary_turn_id", "t-41")
                .containsEntry("stage2_needed", true)
                .containsEntry("updated_at", "2026-05-01T09:30:00.123456Z");
    }

    @Test
    void writesNullsForAbsentBoundaryAndTime() {
        Map<String, Object> map = CompactionState.initial("heuristic").toMap();
        assertThat(map)
                .containsEntry("boundary_turn_id", null)
                .containsEntry("updated_at", null)
                .hasSize(6);
    }

    @Test
    void readsBackWhatItWrites() {
        CompactionState state = new CompactionState("cl100k_base", 0.75, 3, "turn-9", false, UPDATED);
        assertThat(CompactionState.fromMap(state.toMap())).isEqualTo(state);
    }

    @Test
    void readsDefaultsFromAnEmptyOrNullMap() {
        CompactionState expected = new CompactionState("heuristic", 1.0, 0, null, false, null);
        assertThat(CompactionState.fromMap(Map.of())).isEqualTo(expected);
        assertThat(CompactionState.fromMap(null)).isEqualTo(expected);
    }

    @Test
    void readsNumbersOfAnyNumberType() {
        assertThat(read("calibration", 1).calibration()).isEqualTo(1.0);
        assertThat(read("calibration", new BigDecimal("1.25")).calibration()).isEqualTo(1.25);
        assertThat(read("calibration", 0.8f).calibration()).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(read("samples", 7L).samples()).isEqualTo(7);
        assertThat(read("samples", 3.0).samples()).isEqualTo(3);
        assertThat(read("samples", new BigInteger("42")).samples()).isEqualTo(42);
        assertThat(read("samples", (short) 2).samples()).isEqualTo(2);
    }

    @Test
    void readsMistypedValuesAsDefaults() {
        assertThat(read("tokenizer", 5).tokenizer()).isEqualTo("heuristic");
        assertThat(read("tokenizer", null).tokenizer()).isEqualTo("heuristic");
        assertThat(read("calibration", "1.5").calibration()).isEqualTo(1.0);
        assertThat(read("calibration", Double.NaN).calibration()).isEqualTo(1.0);
        assertThat(read("calibration", Double.POSITIVE_INFINITY).calibration()).isEqualTo(1.0);
        assertThat(read("samples", -4).samples()).isZero();
        assertThat(read("samples", "3").samples()).isZero();
        assertThat(read("samples", Long.MAX_VALUE).samples()).isEqualTo(Integer.MAX_VALUE);
        assertThat(read("boundary_turn_id", 42).boundaryTurnId()).isNull();
        assertThat(read("stage2_needed", "true").stage2Needed()).isFalse();
        assertThat(read("stage2_needed", Boolean.TRUE).stage2Needed()).isTrue();
        assertThat(read("updated_at", "yesterday").updatedAt()).isNull();
        assertThat(read("updated_at", 1700000000).updatedAt()).isNull();
    }

    @Test
    void readsTimestampsAsPythonAndJavaWriteThem() {
        // Python: datetime.now(timezone.utc).isoformat()
        assertThat(read("updated_at", "2026-05-01T09:30:00.123456+00:00").updatedAt())
                .isEqualTo(UPDATED);
        assertThat(read("updated_at", "2026-05-01T11:30:00.123456+02:00").updatedAt())
                .isEqualTo(UPDATED);
        assertThat(read("updated_at", "2026-05-01T09:30:00.123456Z").updatedAt())
                .isEqualTo(UPDATED);
        // A naive timestamp is read as UTC.
        assertThat(read("updated_at", "2026-05-01T09:30:00.123456").updatedAt()).isEqualTo(UPDATED);
        assertThat(read("updated_at", UPDATED).updatedAt()).isEqualTo(UPDATED);
    }

    @Test
    void ignoresUnknownKeys() {
        Map<String, Object> map = new HashMap<>(new CompactionState("o200k_base", 1.1, 2, "b", true, UPDATED).toMap());
        map.put("future_key", "x");
        assertThat(CompactionState.fromMap(map))
                .isEqualTo(new CompactionState("o200k_base", 1.1, 2, "b", true, UPDATED));
    }

    @Test
    void rejectsInvalidStates() {
        assertThatThrownBy(() -> new CompactionState(null, 1.0, 0, null, false, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("tokenizer");
        assertThatThrownBy(() -> new CompactionState("heuristic", Double.NaN, 0, null, false, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("calibration");
        assertThatThrownBy(() -> new CompactionState("heuristic", 1.0, -1, null, false, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("samples");
    }

    @Test
    void initialStateHasTheSpecDefaults() {
        assertThat(CompactionState.initial("o200k_base"))
                .isEqualTo(new CompactionState("o200k_base", 1.0, 0, null, false, null));
    }

    @Test
    void commitTelemetryDefaultsToZero() {
        assertThat(new CompactionCommit(500, "t", true)).isEqualTo(new CompactionCommit(500, "t", true, 0, 0));
    }

    @Test
    void survivesJavaSerialization() throws Exception {
        CompactionState state = new CompactionState("o200k_base", 1.3, 4, "t-2", true, UPDATED);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(state);
            out.writeObject(new CompactionCommit(10, null, false, 20, 1));
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(state);
            assertThat(in.readObject()).isEqualTo(new CompactionCommit(10, null, false, 20, 1));
        }
    }

    private static CompactionState read(String key, Object value) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put(key, value);
        return CompactionState.fromMap(map);
    }
}
