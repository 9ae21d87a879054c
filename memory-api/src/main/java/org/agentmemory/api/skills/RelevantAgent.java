package org.agentmemory.api.skills;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Another agent of the tenant whose failure warnings a query also sees (spec §9.5), with the decay applied.
 *
 * @param agentId    the other agent
 * @param similarity cosine of the query's vector and the agent's domain description's vector, in [−1, 1]; at least
 *                   {@code memory.router.similarity-threshold}
 * @param relevance  {@code similarity × memory.router.cross-domain-decay}: what one of its warnings is worth next to
 *                   one of the asking agent's own (which count 1); agents are ordered by it, highest first
 * @param warnings   how many of its failure warnings the query sees: ⌈relevance × the section's warning count⌉, at
 *                   most {@code memory.router.warnings-per-agent}
 */
@Schema(description = "Another agent of the tenant whose failure warnings a query also sees, with the decay applied.")
public record RelevantAgent(
        @Schema(description = "The other agent.") String agentId,

        @Schema(
                description = "Cosine of the query's vector and the agent's domain description's vector; at least"
                        + " memory.router.similarity-threshold.")
        double similarity,

        @Schema(
                description = "similarity × memory.router.cross-domain-decay: what one of its warnings is worth next"
                        + " to one of the asking agent's own; the order, highest first.")
        double relevance,

        @Schema(
                description = "How many of its failure warnings the query sees: relevance × the section's warning"
                        + " count, rounded up, at most memory.router.warnings-per-agent.")
        int warnings)
        implements Serializable {}
