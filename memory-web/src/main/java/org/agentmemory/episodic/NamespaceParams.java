package org.agentmemory.episodic;

import jakarta.ws.rs.QueryParam;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The namespace of an episodic read, as query parameters (spec §10.2): {@code agentId} is required, the other ids
 * narrow the namespace. Used as a {@code @BeanParam} by every read of {@link EpisodesResource}.
 */
public class NamespaceParams {

    @QueryParam("agentId")
    @Parameter(description = "The agent whose episodes are read (required)")
    String agentId;

    @QueryParam("userId")
    @Parameter(description = "Narrows the namespace to one user")
    String userId;

    @QueryParam("sessionId")
    @Parameter(description = "Narrows the namespace to one session")
    String sessionId;

    @QueryParam("roomId")
    @Parameter(description = "Narrows the namespace to one room")
    String roomId;

    @QueryParam("crewId")
    @Parameter(description = "Narrows the namespace to one crew")
    String crewId;

    /**
     * @param tenantId the caller's tenant, never null
     * @return the namespace, never null
     * @throws InvalidInputException when {@code agentId} is missing or blank
     */
    MemoryNamespace toNamespace(String tenantId) throws InvalidInputException {
        return EpisodicRequests.namespace(tenantId, agentId, userId, sessionId, roomId, crewId);
    }
}
