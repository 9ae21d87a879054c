package org.agentmemory.api.skills;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An agent registered in its tenant (spec §9.5 registry; issue 35 item 3).
 *
 * @param agentId           the agent
 * @param domainDescription what the agent covers, compared with queries by the cross-domain router; {@code null} when
 *                          the agent takes no part in routing
 * @param skillAutoExtract  whether the dream cycle extracts skills from the agent's successful episodes (spec §9.4
 *                          {@code skill_auto_extract}); {@code null} = the deployment's default
 *                          ({@code memory.skills.auto-extract})
 * @param embedded          whether the description has a vector of the current embedding model; {@code false} when it
 *                          could not be embedded (the router then skips the agent) or has none
 * @param createdAt         when it was registered (UTC)
 * @param updatedAt         when the registration last changed (UTC)
 */
@Schema(description = "An agent registered in its tenant: the domain it covers and its skill settings.")
public record AgentRegistration(
        @Schema(description = "The agent.") String agentId,

        @Schema(
                description = "What the agent covers, compared with queries by the cross-domain router; null when the"
                        + " agent takes no part in routing.",
                nullable = true)
        String domainDescription,

        @Schema(
                description = "Whether the dream cycle extracts skills from the agent's successful episodes; null ="
                        + " the deployment's default (memory.skills.auto-extract).",
                nullable = true)
        Boolean skillAutoExtract,

        @Schema(
                description = "Whether the description has a vector of the current embedding model; false when it"
                        + " could not be embedded (the router then skips the agent) or there is none.")
        boolean embedded,

        @Schema(description = "When it was registered, ISO-8601 UTC.")
        Instant createdAt,

        @Schema(description = "When the registration last changed, ISO-8601 UTC.")
        Instant updatedAt)
        implements Serializable {}
