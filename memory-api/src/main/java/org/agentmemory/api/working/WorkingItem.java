package org.agentmemory.api.working;

import java.io.Serializable;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One working-memory item (seed 003 {@code MemoryItem}).
 *
 * @param itemId         the item's id, unique in the service
 * @param content        the text, 1–32,768 code points
 * @param metadata       the caller's metadata, a JSON object; empty when none
 * @param importance     0–1; at or above the importance threshold the item is long-term
 * @param accessCount    reads by id so far; at the promotion threshold a short-term item is promoted
 * @param tier           where it is kept
 * @param context        the context frame on top of the stack when the item was stored, or {@code null}
 * @param createdAt      when it was stored
 * @param updatedAt      when it last changed (stored, updated, read by id or promoted)
 * @param lastAccessedAt when it was last read by id, or {@code null}
 * @param promotedAt     when it was promoted from short-term to long-term, or {@code null} (never promoted, or
 *                       stored long-term)
 */
@Schema(description = "One working-memory item of a session.")
public record WorkingItem(
        @Schema(description = "The item's id.") long itemId,

        @Schema(description = "The text.") String content,

        @Schema(description = "The caller's metadata, a JSON object; empty when none.")
        Map<String, Object> metadata,

        @Schema(description = "Importance, 0 to 1.") double importance,

        @Schema(description = "How many times the item was read by id.")
        long accessCount,

        @Schema(description = "Where it is kept: short_term or long_term.")
        MemoryTier tier,

        @Schema(
                description = "The context frame on top of the stack when it was stored; null if none.",
                nullable = true)
        ContextFrame context,

        @Schema(description = "When it was stored.") Instant createdAt,

        @Schema(description = "When it last changed: stored, updated, read by id or promoted.")
        Instant updatedAt,

        @Schema(description = "When it was last read by id; null if never.", nullable = true)
        Instant lastAccessedAt,

        @Schema(
                description = "When it was promoted from short_term to long_term; null if never promoted.",
                nullable = true)
        Instant promotedAt)
        implements Serializable {}
