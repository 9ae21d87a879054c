package org.agentmemory.episodic;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.episodic.EpisodicMemory;
import org.agentmemory.rest.Problem;
import org.agentmemory.security.Audited;
import org.agentmemory.security.OutOfScopeException;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Deleting episodes (issue 34 item 5): {@code DELETE /episodes/{episodeId}?agentId=&userId=} deletes one episode of
 * its owner (204; 404 when it does not exist or belongs to another tenant, agent or user), {@code DELETE
 * /episodes?agentId=&userId=} wipes an agent's episodic memory, or one user's part of it, and answers
 * {@code {"deleted": n}}. Index documents go with the rows. A class of its own beside {@link EpisodesResource}, on the
 * same path.
 *
 * <p>Fault tolerance: one episode 10,000 ms; a wipe runs in transactions of 100 episodes, 600,000 ms and 2
 * concurrent calls; 503 + {@code Retry-After} beyond either.
 */
@Path("episodes")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Episodes", description = "Episodic memory: record, recall, warn")
@RolesAllowed(Roles.WRITER)
@SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
public class EpisodeDeletionsResource {

    @EJB
    EpisodicMemory memory;

    @Inject
    Tenants tenants;

    /**
     * @param episodeId the episode's UUID
     * @param agentId   the agent it must belong to; required
     * @param userId    the user it must belong to, or absent for any user of the agent
     * @return 204
     * @throws MemoryException 404 when absent for this owner, 400 when {@code agentId} is missing
     */
    @Audited("episode.delete")
    @DELETE
    // Episode ids are UUIDs, as for reading one.
    @Path("{episodeId: [0-9a-fA-F-]{36}}")
    @Timeout(10_000)
    @Operation(
            summary = "Delete an episode",
            description = "Deletes the episode and its search-index document, if it belongs to the agent (and to the"
                    + " user, when userId is given).")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing, or an id breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "404",
            description = "No such episode in the tenant for this agent and user (another owner's episode answers"
                    + " the same)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response deleteOne(
            @PathParam("episodeId") String episodeId,
            @Parameter(description = "The agent the episode belongs to (required)") @QueryParam("agentId")
                    String agentId,
            @Parameter(description = "The user the episode belongs to; absent for any user of the agent")
                    @QueryParam("userId")
                    String userId)
            throws MemoryException {
        memory.deleteEpisode(
                tenants.current(),
                required(tenants.agentId("agentId", agentId)),
                tenants.userId("userId", userId),
                episodeId);
        return Response.noContent().build();
    }

    /**
     * @param agentId the agent; required
     * @param userId  only this user's episodes, or absent for every user's (then {@code memory-admin})
     * @return 200 with {@code {"deleted": n}}
     * @throws MemoryException 400 when {@code agentId} is missing or an id breaks the rules
     */
    @Audited("episodes.delete")
    @DELETE
    @Timeout(600_000)
    @Bulkhead(2)
    @Operation(
            summary = "Wipe an agent's episodic memory",
            description = "Deletes every episode of the agent (of every user, session, room and crew), or only the"
                    + " given user's, with their search-index documents, in transactions of 100 episodes. Every"
                    + " user's episodes need memory-admin; one user's need memory-writer.")
    @APIResponse(
            responseCode = "200",
            description = "{\"deleted\": n}",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "deleted",
                                                            type = SchemaType.INTEGER,
                                                            description =
                                                                    "Episodes deleted; 0 when there were none."))))
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing, or an id breaks the id rules; nothing is deleted",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "No userId and not memory-admin, or an id other than the token is narrowed to",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response deleteAll(
            @Parameter(description = "The agent whose episodes are deleted (required)") @QueryParam("agentId")
                    String agentId,
            @Parameter(description = "Only this user's episodes; absent for every user's (memory-admin)")
                    @QueryParam("userId")
                    String userId)
            throws MemoryException {
        String agent = required(tenants.agentId("agentId", agentId));
        String user = tenants.userId("userId", userId);
        long deleted;
        if (user != null) {
            deleted = memory.deleteUserEpisodes(tenants.current(), agent, user);
        } else if (tenants.caller().hasRole(Roles.ADMIN)) {
            deleted = memory.deleteAgentEpisodes(tenants.current(), agent);
        } else {
            throw new OutOfScopeException(
                    "userId",
                    "Deleting every user's episodes of an agent needs the role " + Roles.ADMIN
                            + "; name one user with userId to delete that user's.");
        }
        return Response.ok(Map.of("deleted", deleted)).build();
    }

    private static String required(String agentId) throws InvalidInputException {
        if (agentId == null) {
            throw new InvalidInputException("agentId", "required", "agentId is required: the agent of the episodes.");
        }
        return agentId;
    }
}
