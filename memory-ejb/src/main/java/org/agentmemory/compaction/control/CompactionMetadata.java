package org.agentmemory.compaction.control;

import java.util.LinkedHashMap;
import java.util.Map;
import org.agentmemory.api.compaction.CompactionState;

/**
 * Where the compaction state lives in a conversation's metadata: {@code metadata["compaction"]} (spec §1.4,
 * §4), the only compaction data ever persisted. Pure; never mutates its inputs.
 */
public final class CompactionMetadata {

    /** The metadata key of the compaction state. */
    public static final String KEY = "compaction";

    private CompactionMetadata() {}

    /**
     * @param metadata a conversation's metadata, or {@code null}
     * @return the stored state read tolerantly ({@link CompactionState#fromMap}), or {@code null} when the key
     *         is absent or does not hold a JSON object
     */
    public static CompactionState read(Map<String, ?> metadata) {
        if (metadata == null || !(metadata.get(KEY) instanceof Map<?, ?> stored)) {
            return null;
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        stored.forEach((k, v) -> copy.put(String.valueOf(k), v));
        return CompactionState.fromMap(copy);
    }

    /**
     * @param metadata a conversation's metadata, or {@code null}
     * @param state    the new state; never {@code null}
     * @return a new map: every other key kept in order, {@code "compaction"} replaced by the state's map form
     */
    public static Map<String, Object> with(Map<String, ?> metadata, CompactionState state) {
        Map<String, Object> updated = new LinkedHashMap<>();
        if (metadata != null) {
            updated.putAll(metadata);
        }
        updated.put(KEY, state.toMap());
        return updated;
    }

    /**
     * The calibration a compaction multiplies sizes by: the stored one when it is a positive finite number,
     * else 1.0 (a damaged state never breaks the read path).
     *
     * @param state the stored state, or {@code null}
     * @return a finite calibration &gt; 0
     */
    public static double calibration(CompactionState state) {
        if (state == null || !(Double.isFinite(state.calibration()) && state.calibration() > 0)) {
            return CompactionState.DEFAULT_CALIBRATION;
        }
        return state.calibration();
    }
}
