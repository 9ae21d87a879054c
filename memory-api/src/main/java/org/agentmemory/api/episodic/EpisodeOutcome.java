package org.agentmemory.api.episodic;

import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * How an episode ended (spec §10.1). JSON and storage form: the lower-case {@link #value()}
 * ({@code success}, {@code failure}, {@code partial}, {@code timeout}).
 */
@Schema(
        description = "How an episode ended: success, failure, partial or timeout; failure and timeout make a"
                + " failure episode. Lower case in JSON; accepted in any case on input.")
public enum EpisodeOutcome {
    /** The action achieved what was asked. */
    SUCCESS,
    /** The action failed; a failure episode ({@link #isFailure()}). */
    FAILURE,
    /** The action achieved part of what was asked; not a failure episode. */
    PARTIAL,
    /** The action ran out of time; a failure episode ({@link #isFailure()}). */
    TIMEOUT;

    /** @return the lower-case JSON and storage value, e.g. {@code "timeout"} */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Whether an episode with this outcome is a failure (spec §10.3 step 2: {@code is_failure = outcome ∈
     * {FAILURE, TIMEOUT}}).
     *
     * @return {@code true} for {@link #FAILURE} and {@link #TIMEOUT}
     */
    public boolean isFailure() {
        return this == FAILURE || this == TIMEOUT;
    }

    /**
     * @param value a JSON value such as {@code "failure"}; case-insensitive, surrounding blanks ignored
     * @return the outcome
     * @throws IllegalArgumentException when the value is {@code null} or unknown; the message lists the valid values
     */
    public static EpisodeOutcome fromValue(String value) {
        if (value != null) {
            String key = value.strip().toUpperCase(Locale.ROOT);
            for (EpisodeOutcome outcome : values()) {
                if (outcome.name().equals(key)) {
                    return outcome;
                }
            }
        }
        throw new IllegalArgumentException(
                "Unknown episode outcome '" + value + "'; valid values are success, failure, partial and timeout");
    }
}
