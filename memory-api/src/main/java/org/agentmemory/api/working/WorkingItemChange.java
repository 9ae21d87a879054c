package org.agentmemory.api.working;

import java.io.Serializable;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A change of an item (seed 003 {@code update}): each field given replaces the stored one, each {@code null} leaves it
 * as it is. Raising the importance of a short-term item to the importance threshold promotes it.
 *
 * @param content    the new text (rules of {@link NewWorkingItem#content()}), or {@code null}
 * @param metadata   the new metadata, replacing the old as a whole (rules of {@link NewWorkingItem#metadata()}), or
 *                   {@code null}
 * @param importance the new importance, 0–1, or {@code null}
 */
@Schema(description = "A change of an item: each field given replaces the stored one; absent fields stay.")
public record WorkingItemChange(
        @Schema(description = "The new text, 1 to 32,768 code points; absent to keep it.", nullable = true)
        String content,

        @Schema(
                description = "The new metadata, replacing the old as a whole (at most 16,384 code points of keys and"
                        + " values); absent to keep it.",
                nullable = true)
        Map<String, Object> metadata,

        @Schema(
                description = "The new importance, 0 to 1; absent to keep it. Reaching the importance threshold"
                        + " promotes a short-term item.",
                nullable = true)
        Double importance)
        implements Serializable {}
