package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.agentmemory.api.compaction.TurnTier;
import org.agentmemory.api.compaction.TurnView;

/**
 * What one compaction decided (spec §1.3 {@code CompactionResult}, §8.5).
 *
 * @param views           the RAW and PRUNED views, oldest → newest: a newest RAW block, then PRUNED
 * @param omissions       outputs the PRUNED lines replaced, de-duplicated by content id keeping the first
 *                        seen in the walk (newest turn first); flush them before rendering
 * @param historyEstimate Σ of the views' calibrated sizes, tokens
 * @param boundaryTurnId  the id of the newest PRUNED view, else the input boundary; persist it
 * @param stage2Needed    the walk dropped a turn for the watermark, or the estimate exceeds
 *                        {@code budget.available()}; ceiling drops alone do not set it
 * @param droppedTurnIds  ceiling-dropped ids (oldest first), then walk-dropped ids (oldest first)
 */
public record CompactionResult(
        List<TurnView> views,
        List<PendingOmission> omissions,
        long historyEstimate,
        String boundaryTurnId,
        boolean stage2Needed,
        List<String> droppedTurnIds) {

    public CompactionResult {
        views = List.copyOf(views);
        omissions = List.copyOf(omissions);
        droppedTurnIds = Collections.unmodifiableList(new ArrayList<>(droppedTurnIds));
    }

    /** @return the views' tiers (no texts), oldest → newest */
    public List<TurnTier> tiers() {
        return views.stream().map(TurnView::tier).toList();
    }
}
