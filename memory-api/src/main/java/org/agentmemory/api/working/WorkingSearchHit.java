package org.agentmemory.api.working;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One search result (seed 003 {@code search} with {@code _rerank_by_context}).
 *
 * @param item         the item (reading it in a search does not count as an access)
 * @param textScore    its full-text score divided by the best candidate's, in (0, 1]
 * @param contextMatch how well the item's context frame matches the current one, 0–1: 0.5 for the same type plus up
 *                     to 0.5 for the words their data share; 0 without a current context or an item context
 * @param relevance    what results are ordered by: {@code 0.7 × textScore + 0.3 × contextMatch} while the stack holds
 *                     a frame, else {@code textScore}
 */
@Schema(description = "One search result with its full-text score, context match and the relevance it is ranked by.")
public record WorkingSearchHit(
        @Schema(description = "The item; a search does not count as an access.")
        WorkingItem item,

        @Schema(description = "Full-text score divided by the best candidate's, in (0, 1].")
        double textScore,

        @Schema(
                description = "Match of the item's context with the current one, 0 to 1 (0.5 same type, up to 0.5"
                        + " shared words).")
        double contextMatch,

        @Schema(
                description = "0.7 × textScore + 0.3 × contextMatch while the context stack holds a frame, else"
                        + " textScore; results are ordered by it.")
        double relevance)
        implements Serializable {}
