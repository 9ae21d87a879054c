package org.agentmemory.api.brain;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One brain page found by a search.
 *
 * @param pageId     the page
 * @param title      its title
 * @param summary    its summary
 * @param category   its category
 * @param score      the full-text score, higher is better (not normalized)
 * @param tokenCount tokens of its body
 */
@Schema(description = "A brain page found by a search.")
public record BrainSearchHit(
        @Schema(description = "The page id.") String pageId,
        @Schema(description = "Its title.") String title,
        @Schema(description = "Its summary.") String summary,
        @Schema(description = "Its category.") String category,

        @Schema(description = "Full-text score, higher is better; not normalized.")
        double score,

        @Schema(description = "Tokens of its body.") int tokenCount)
        implements Serializable {}
