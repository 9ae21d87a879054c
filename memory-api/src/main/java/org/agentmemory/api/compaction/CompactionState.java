package org.agentmemory.api.compaction;

import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The compaction state of one conversation, persisted at {@code metadata["compaction"]} (spec §4). Besides the
 * Stage 2 {@link HistorySummary}, it is the only compaction data stored.
 *
 * <p>Map form ({@link #toMap()}, {@link #fromMap(Map)}), keys exactly as the spec writes them:
 * <pre>
 * {"tokenizer": "o200k_base", "calibration": 1.07, "samples": 12, "boundary_turn_id": "t-41",
 *  "stage2_needed": false, "updated_at": "2026-05-01T09:30:00.123456Z"}
 * </pre>
 *
 * @param tokenizer      name of the token counter the estimates were made with ({@code o200k_base},
 *                       {@code cl100k_base} or {@code heuristic}); never {@code null}
 * @param calibration    provider prompt tokens per estimated token, an EWMA (α 0.2) clamped to [0.5, 2.0];
 *                       1.0 before the first sample; a finite number
 * @param samples        how many (estimate, provider) pairs were folded in; ≥ 0
 * @param boundaryTurnId the compaction boundary: the oldest turn id the read path still considers, or
 *                       {@code null} when no boundary was committed yet
 * @param stage2Needed   whether Stage 2 (summarization) was requested; sticky, never cleared by a commit
 * @param updatedAt      when the calibration last changed (UTC, microsecond precision), or {@code null} before
 *                       the first sample
 */
@Schema(
        description = "The compaction state of one conversation, persisted at metadata.compaction (there with"
                + " snake_case keys: tokenizer, calibration, samples, boundary_turn_id, stage2_needed, updated_at).")
public record CompactionState(
        @Schema(
                description = "The counter the estimates were made with: o200k_base, cl100k_base or heuristic;"
                        + " never null.")
        String tokenizer,

        @Schema(
                description = "Provider prompt tokens per estimated token: a moving average (α 0.2) clamped to"
                        + " [0.5, 2.0]; 1.0 before the first sample.")
        double calibration,

        @Schema(description = "How many (estimate, provider tokens) samples were folded in, 0 or more.")
        int samples,

        @Schema(
                description = "The compaction boundary: the oldest turn id the read path still considers, or null"
                        + " before the first commit with one.")
        String boundaryTurnId,

        @Schema(description = "Whether Stage 2 (summarization) was requested; sticky, never cleared by a commit.")
        boolean stage2Needed,

        @Schema(
                description = "When the calibration last changed, ISO-8601 UTC, microseconds; null before the first"
                        + " sample.")
        Instant updatedAt)
        implements Serializable {

    /** Tokenizer assumed when a stored state names none (spec §4 table, "on read"). */
    public static final String DEFAULT_TOKENIZER = "heuristic";

    /** Calibration of a state without samples (spec §4 table). */
    public static final double DEFAULT_CALIBRATION = 1.0;

    /** Map key of {@link #tokenizer()}. */
    public static final String KEY_TOKENIZER = "tokenizer";
    /** Map key of {@link #calibration()}. */
    public static final String KEY_CALIBRATION = "calibration";
    /** Map key of {@link #samples()}. */
    public static final String KEY_SAMPLES = "samples";
    /** Map key of {@link #boundaryTurnId()}. */
    public static final String KEY_BOUNDARY_TURN_ID = "boundary_turn_id";
    /** Map key of {@link #stage2Needed()}. */
    public static final String KEY_STAGE2_NEEDED = "stage2_needed";
    /** Map key of {@link #updatedAt()}. */
    public static final String KEY_UPDATED_AT = "updated_at";

    /**
     * Validates the state.
     *
     * @param tokenizer      the counter's name; never {@code null}
     * @param calibration    provider tokens per estimated token; finite
     * @param samples        folded samples; ≥ 0
     * @param boundaryTurnId the boundary turn id, or {@code null}
     * @param stage2Needed   whether Stage 2 was requested
     * @param updatedAt      the last calibration change (UTC), or {@code null}
     * @throws NullPointerException     when {@code tokenizer} is {@code null}
     * @throws IllegalArgumentException when {@code calibration} is not finite or {@code samples} is negative
     */
    public CompactionState {
        Objects.requireNonNull(tokenizer, "tokenizer");
        if (!Double.isFinite(calibration)) {
            throw new IllegalArgumentException("calibration must be a finite number but was " + calibration);
        }
        if (samples < 0) {
            throw new IllegalArgumentException("samples must be >= 0 but was " + samples);
        }
    }

    /**
     * The state of a conversation that has none yet (spec §4 {@code apply_commit} step 1).
     *
     * @param tokenizer the counter's name; never {@code null}
     * @return calibration 1.0, no samples, no boundary, Stage 2 not needed, never updated
     */
    public static CompactionState initial(String tokenizer) {
        return new CompactionState(tokenizer, DEFAULT_CALIBRATION, 0, null, false, null);
    }

    /**
     * The persisted form (spec §4 table).
     *
     * @return a new unmodifiable, insertion-ordered map with exactly the six keys {@code tokenizer},
     *         {@code calibration} (Double), {@code samples} (Integer), {@code boundary_turn_id} (String or
     *         {@code null}), {@code stage2_needed} (Boolean) and {@code updated_at} (ISO-8601 UTC string such
     *         as {@code 2026-05-01T09:30:00.123456Z}, or {@code null})
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put(KEY_TOKENIZER, tokenizer);
        map.put(KEY_CALIBRATION, calibration);
        map.put(KEY_SAMPLES, samples);
        map.put(KEY_BOUNDARY_TURN_ID, boundaryTurnId);
        map.put(KEY_STAGE2_NEEDED, stage2Needed);
        map.put(KEY_UPDATED_AT, updatedAt == null ? null : updatedAt.toString());
        return Collections.unmodifiableMap(map);
    }

    /**
     * Reads a persisted state, tolerantly (spec §4 table "Default"): a missing, {@code null} or mistyped key
     * takes its default, so a damaged state never makes a history unreadable.
     * <ul>
     * <li>{@code tokenizer}: a string, else {@code "heuristic"};</li>
     * <li>{@code calibration}: any {@link Number} that is finite, else 1.0;</li>
     * <li>{@code samples}: any {@link Number} (truncated to an integer, negative read as 0), else 0;</li>
     * <li>{@code boundary_turn_id}: a string, else {@code null};</li>
     * <li>{@code stage2_needed}: a {@link Boolean}, else {@code false};</li>
     * <li>{@code updated_at}: an ISO-8601 date-time string ({@code Z}, an offset such as {@code +00:00} as the
     * Python system writes it, or no offset, read as UTC) or an {@link Instant}, else {@code null}.</li>
     * </ul>
     *
     * @param map the stored map; {@code null} reads as an empty map
     * @return the state; never {@code null}
     */
    public static CompactionState fromMap(Map<String, ?> map) {
        Map<String, ?> m = map == null ? Map.of() : map;
        String tokenizer = m.get(KEY_TOKENIZER) instanceof String s ? s : DEFAULT_TOKENIZER;
        double calibration = m.get(KEY_CALIBRATION) instanceof Number n && Double.isFinite(n.doubleValue())
                ? n.doubleValue()
                : DEFAULT_CALIBRATION;
        int samples = m.get(KEY_SAMPLES) instanceof Number n
                ? (int) Math.max(0, Math.min(Integer.MAX_VALUE, n.longValue()))
                : 0;
        String boundary = m.get(KEY_BOUNDARY_TURN_ID) instanceof String s ? s : null;
        boolean stage2 = m.get(KEY_STAGE2_NEEDED) instanceof Boolean b && b;
        Instant updatedAt = readInstant(m.get(KEY_UPDATED_AT));
        return new CompactionState(tokenizer, calibration, samples, boundary, stage2, updatedAt);
    }

    private static Instant readInstant(Object value) {
        if (value instanceof Instant instant) {
            return instant.truncatedTo(ChronoUnit.MICROS);
        }
        if (!(value instanceof String text)) {
            return null;
        }
        try {
            TemporalAccessor parsed = DateTimeFormatter.ISO_DATE_TIME.parse(text.trim());
            if (parsed.isSupported(ChronoField.OFFSET_SECONDS)) {
                return Instant.from(parsed);
            }
            // Python's naive isoformat() has no offset; the spec stores UTC.
            return LocalDateTime.from(parsed).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
