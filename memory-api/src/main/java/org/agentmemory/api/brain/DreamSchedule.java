package org.agentmemory.api.brain;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The dream state of an agent (spec §12.1 {@code DreamState}): its timer, the watermark, counters and the lease.
 *
 * @param agentId              the agent
 * @param enabled              whether a timer runs the cycle
 * @param intervalSeconds      the interval between cycles, seconds
 * @param nextDue              when the timer runs it next, or {@code null} (disabled, never scheduled)
 * @param watermark            where the next cycle starts collecting, or {@code null} (never consolidated)
 * @param running              whether a server holds the lease now
 * @param runningSince         since when, or {@code null}
 * @param leaseOwner           which server, or {@code null}
 * @param cyclesCompleted      cycles that finished without aborting
 * @param episodesConsolidated episodes consolidated over all cycles
 * @param lastAborted          whether the last cycle aborted (the next is due after interval / back-off divisor)
 */
@Schema(description = "The dream state of an agent: its timer, watermark, counters and lease.")
public record DreamSchedule(
        @Schema(description = "The agent.") String agentId,

        @Schema(description = "Whether a timer runs the cycle.")
        boolean enabled,

        @Schema(description = "Interval between cycles, seconds.")
        long intervalSeconds,

        @Schema(description = "When the timer runs the cycle next.", nullable = true)
        Instant nextDue,

        @Schema(description = "Where the next cycle starts collecting episodes.", nullable = true)
        Instant watermark,

        @Schema(description = "Whether a server holds the agent's lease now.")
        boolean running,

        @Schema(description = "Since when the lease is held.", nullable = true)
        Instant runningSince,

        @Schema(description = "The server holding the lease.", nullable = true)
        String leaseOwner,

        @Schema(description = "Cycles that finished without aborting.")
        long cyclesCompleted,

        @Schema(description = "Episodes consolidated over all cycles.")
        long episodesConsolidated,

        @Schema(description = "Whether the last cycle aborted.")
        boolean lastAborted)
        implements Serializable {}
