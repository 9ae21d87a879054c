package org.agentmemory.api.episodic;

import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * How recall finds episodes similar to a query (spec §10.6). JSON form: the lower-case {@link #value()}.
 */
@Schema(
        description = "How recall searches: vector (embedding similarity only), full_text (word relevance only)"
                + " or hybrid (both, fused; the default). Lower case in JSON; accepted in any case on input.")
public enum RecallMode {
    /** Cosine similarity of the query embedding to the episode embeddings only (the reference's default). */
    VECTOR,
    /** Full-text relevance over the searchable text only (no embedding needed). */
    FULL_TEXT,
    /** Both legs, fused (reciprocal rank fusion by default, or weighted score fusion). */
    HYBRID;

    /** @return the lower-case JSON value, e.g. {@code "full_text"} */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param value {@code "vector"}, {@code "full_text"} or {@code "hybrid"}; case-insensitive
     * @return the mode
     * @throws IllegalArgumentException when the value is {@code null} or unknown; the message lists the valid values
     */
    public static RecallMode fromValue(String value) {
        if (value != null) {
            String key = value.strip().toUpperCase(Locale.ROOT);
            for (RecallMode mode : values()) {
                if (mode.name().equals(key)) {
                    return mode;
                }
            }
        }
        throw new IllegalArgumentException(
                "Unknown recall mode '" + value + "'; valid values are vector, full_text and hybrid");
    }
}
