package org.agentmemory.api.working;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Whose working memory: one session of one agent in a tenant. Every operation of {@link WorkingMemoryOperations} is
 * scoped to it. Agent and session ids are 1–128 code points, not blank, without control characters.
 *
 * @param tenantId  the tenant; over REST and for authenticated EJB callers the caller's
 * @param agentId   the agent
 * @param sessionId the session
 */
@Schema(description = "Whose working memory: one session of one agent in the caller's tenant.")
public record WorkingSessionRef(
        @Schema(description = "The tenant: over REST the caller's, from its token.")
        String tenantId,

        @Schema(description = "The agent; 1 to 128 code points.")
        String agentId,

        @Schema(description = "The session; 1 to 128 code points.")
        String sessionId)
        implements Serializable {}
