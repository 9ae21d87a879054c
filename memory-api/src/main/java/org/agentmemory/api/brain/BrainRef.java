package org.agentmemory.api.brain;

import java.io.Serializable;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Which brain: an agent's, or its organisation's (the tenant's), issue 33 item 1.
 *
 * @param tenantId the tenant; over REST and for authenticated EJB callers the caller's
 * @param agentId  the agent, or {@code null} for the organisation brain
 */
@Schema(description = "Which brain: an agent's, or (agentId null) the organisation's.")
public record BrainRef(
        @Schema(description = "The tenant: over REST the caller's, from its token.")
        String tenantId,

        @Schema(description = "The agent; null for the organisation brain.", nullable = true)
        String agentId)
        implements Serializable {

    /** The brain id of the organisation brain. */
    public static final String ORGANISATION = "org";

    public BrainRef {
        Objects.requireNonNull(tenantId, "tenantId");
    }

    /** @return {@code agent:<agentId>}, or {@value #ORGANISATION} */
    public String brainId() {
        return agentId == null ? ORGANISATION : "agent:" + agentId;
    }
}
