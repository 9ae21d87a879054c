package org.agentmemory.api.working;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A session's context summary (seed 003 {@code get_context_summary}).
 *
 * @param context   the top 3 frames of the context stack, bottom first
 * @param recent    the 5 most recent short-term items, newest first
 * @param important the 3 most important long-term items with importance at least 0.8, most important first
 * @param text      the three sections rendered for a prompt ({@code Current context:}, {@code Recent activity:},
 *                  {@code Important memories:}; each line cut to 100 code points), or {@code No context available.}
 *                  when all three are empty
 */
@Schema(description = "A session's context summary: the stack's top frames, recent items and important items.")
public record WorkingSummary(
        @Schema(description = "The top 3 frames of the context stack, bottom first.")
        List<ContextFrame> context,

        @Schema(description = "The 5 most recent short-term items, newest first.")
        List<WorkingItem> recent,

        @Schema(description = "Up to 3 long-term items of importance ≥ 0.8, most important first.")
        List<WorkingItem> important,

        @Schema(description = "The sections rendered as text, or 'No context available.' when all are empty.")
        String text)
        implements Serializable {}
