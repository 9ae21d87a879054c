package org.agentmemory.api.brain;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What one dream cycle did (spec §12.1 {@code DreamCycleReport}, with page and statement counts).
 *
 * @param cycleId              the cycle's number, increasing; 0 for a cycle refused before it started
 * @param agentId              the agent
 * @param trigger              {@code timer} or {@code manual}
 * @param serverId             the server that ran it
 * @param startedAt            start
 * @param finishedAt           end
 * @param episodesCollected    eligible episodes read since the watermark
 * @param groupsFormed         groups the clustering formed
 * @param groupsDistilled      groups distilled and archived
 * @param groupsByModel        of those, distilled by the model (the others by the heuristic)
 * @param groupsSkipped        groups whose distillation failed; they stay pending
 * @param groupsDeferred       groups beyond the per-cycle cap; they stay pending
 * @param episodesConsolidated episodes marked consolidated
 * @param pagesCreated         page ids created in the agent's brain
 * @param pagesMerged          page ids whose statements gained knowledge or evidence
 * @param pagesPromoted        page ids copied to the organisation brain for the first time
 * @param statementsAdded      new statements
 * @param statementsSuperseded statements marked superseded by newer evidence
 * @param aborted              whether the cycle aborted (the watermark did not move)
 * @param abortReason          why, or {@code null}
 * @param watermarkBefore      the watermark before, or {@code null}
 * @param watermarkAfter       the watermark after, or {@code null}
 */
@Schema(
        description =
                "What one dream cycle did: counts, pages written and promoted, the watermark, and why it aborted.")
public record DreamCycleReport(
        @Schema(description = "The cycle's number, increasing.")
        long cycleId,

        @Schema(description = "The agent.") String agentId,
        @Schema(description = "timer or manual.") String trigger,

        @Schema(description = "The server that ran the cycle.")
        String serverId,

        @Schema(description = "Start.") Instant startedAt,
        @Schema(description = "End.") Instant finishedAt,

        @Schema(description = "Eligible episodes read since the watermark.")
        int episodesCollected,

        @Schema(description = "Groups the clustering formed.")
        int groupsFormed,

        @Schema(description = "Groups distilled and archived.")
        int groupsDistilled,

        @Schema(description = "Of those, groups the model distilled; the others the heuristic.")
        int groupsByModel,

        @Schema(description = "Groups whose distillation failed; they stay pending.")
        int groupsSkipped,

        @Schema(description = "Groups beyond the per-cycle cap; they stay pending.")
        int groupsDeferred,

        @Schema(description = "Episodes marked consolidated.")
        int episodesConsolidated,

        @Schema(description = "Page ids created in the agent's brain.")
        List<String> pagesCreated,

        @Schema(description = "Page ids that gained statements or evidence.")
        List<String> pagesMerged,

        @Schema(description = "Page ids copied to the organisation brain for the first time.")
        List<String> pagesPromoted,

        @Schema(description = "New statements.") int statementsAdded,

        @Schema(description = "Statements superseded by newer evidence.")
        int statementsSuperseded,

        @Schema(description = "Whether the cycle aborted; the watermark did not move.")
        boolean aborted,

        @Schema(description = "Why it aborted.", nullable = true)
        String abortReason,

        @Schema(description = "The watermark before the cycle.", nullable = true)
        Instant watermarkBefore,

        @Schema(description = "The watermark after the cycle.", nullable = true)
        Instant watermarkAfter)
        implements Serializable {

    public DreamCycleReport {
        pagesCreated = pagesCreated == null ? List.of() : List.copyOf(pagesCreated);
        pagesMerged = pagesMerged == null ? List.of() : List.copyOf(pagesMerged);
        pagesPromoted = pagesPromoted == null ? List.of() : List.copyOf(pagesPromoted);
    }
}
