package org.agentmemory.api.working;

import java.io.Serializable;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An item to store (seed 003 {@code save}).
 *
 * @param content    the text: required, 1–32,768 code points, not blank, no NUL
 * @param metadata   a JSON object of at most 16,384 code points of keys and values, or {@code null} for none
 * @param importance 0–1, or {@code null} for 0.5 (seed 003); at or above the importance threshold (default 0.7) the
 *                   item goes straight to the long-term tier
 * @param longTerm   {@code true} to store it in the long-term tier whatever its importance; {@code null} means
 *                   {@code false}
 */
@Schema(description = "An item to store in a session's working memory.")
public record NewWorkingItem(
        @Schema(description = "The text; required, 1 to 32,768 code points, not blank, no NUL.")
        String content,

        @Schema(
                description = "A JSON object of at most 16,384 code points of keys and values; absent for none.",
                nullable = true)
        Map<String, Object> metadata,

        @Schema(
                description = "0 to 1, default 0.5; at or above the importance threshold (default 0.7) the item is"
                        + " stored long-term.",
                nullable = true)
        Double importance,

        @Schema(description = "true stores it long-term whatever its importance; default false.", nullable = true)
        Boolean longTerm)
        implements Serializable {}
