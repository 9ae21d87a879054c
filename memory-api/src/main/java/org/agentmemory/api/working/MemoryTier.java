package org.agentmemory.api.working;

import java.util.Locale;
import org.agentmemory.api.InvalidInputException;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The tier of a working-memory item (seed 003: the {@code source} of a search result). */
@Schema(description = "The tier of a working-memory item: short_term (bounded, oldest evicted first) or long_term.")
public enum MemoryTier {
    /** Bounded per session; the oldest item is evicted when a new one exceeds the capacity. */
    SHORT_TERM,
    /** Unbounded; kept until deleted. Items arrive by importance at store time or by promotion. */
    LONG_TERM;

    /**
     * @param field the request field, for the error
     * @param value {@code short_term} or {@code long_term} in any case, or {@code null}
     * @return the tier, or {@code null} when {@code value} is {@code null}
     * @throws InvalidInputException when {@code value} names no tier
     */
    public static MemoryTier parse(String field, String value) throws InvalidInputException {
        if (value == null) {
            return null;
        }
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(
                    field, "one-of", field + " is '" + value + "'; it must be short_term or long_term.");
        }
    }

    /** @return the name as stored and as JSON writes it: {@code short_term} or {@code long_term} */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
