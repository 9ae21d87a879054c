package org.agentmemory.episodic;

import jakarta.ws.rs.QueryParam;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.security.Tenants;
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
     * @param tenants the caller
     * @return the namespace in the caller's tenant, narrowed to the token's user and agent; never null
     * @throws InvalidInputException when {@code agentId} is missing or blank
     * @throws org.agentmemory.security.OutOfScopeException when it names another user or agent than the token's
     */
    MemoryNamespace toNamespace(Tenants tenants) throws InvalidInputException {
        return EpisodicRequests.namespace(
                tenants.current(),
                tenants.agentId("agentId", agentId),
                tenants.userId("userId", userId),
                sessionId,
                roomId,
                crewId);
    }
}
