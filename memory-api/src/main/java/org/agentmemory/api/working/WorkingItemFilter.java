package org.agentmemory.api.working;

import java.io.Serializable;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Which items to retrieve (seed 003 {@code retrieve} with filters). An item matches when it matches every criterion
 * given.
 *
 * @param metadata      metadata key → value the item's metadata must hold (equal JSON scalars: a string, a number
 *                      compared by value, or a boolean); at most 32 keys; {@code null} or empty for any metadata
 * @param tier          the tier, or {@code null} for both
 * @param minImportance least importance, 0–1, or {@code null} for any
 * @param limit         most items returned, 1–100, or {@code null} for 10 (seed 003)
 */
@Schema(description = "Which items to retrieve: every criterion given must match.")
public record WorkingItemFilter(
        @Schema(
                description = "Metadata key to the value it must hold (a string, number or boolean); at most 32 keys.",
                nullable = true)
        Map<String, Object> metadata,

        @Schema(description = "short_term or long_term; absent for both.", nullable = true)
        MemoryTier tier,

        @Schema(description = "Least importance, 0 to 1; absent for any.", nullable = true)
        Double minImportance,

        @Schema(description = "Most items returned, 1 to 100; default 10.", nullable = true)
        Integer limit)
        implements Serializable {}
