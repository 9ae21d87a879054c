package org.agentmemory.context;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.context.ContextMemory;
import org.agentmemory.rest.Problem;
import org.agentmemory.security.ConversationIdScoped;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The Stage 2 summary of a conversation's earlier turns (issue 35 item 4): {@code GET /conversations/{id}/summary}.
 * The context operation shows it in front of the shown turns; this reads it as stored.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 64 concurrent calls, 503 + {@code Retry-After} beyond either. Errors are
 * problem details: 404 for an unknown conversation and for a conversation without a summary yet.
 */
@ConversationIdScoped
@Path("conversations/{id}/summary")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Context", description = "Histories compacted into a model's token budget; context assembly")
@Timeout(10_000)
@Bulkhead(64)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class HistorySummaryResource {

    @EJB
    ContextMemory memory;

    @Inject
    Tenants tenants;

    /**
     * @param id the conversation
     * @return 200 with the {@link HistorySummary}
     * @throws MemoryException 404 for an unknown conversation, or when it has no summary yet
     */
    @GET
    @Operation(
            summary = "Read the summary of a conversation's earlier turns",
            description = "The Stage 2 summary as stored: the range of turns it covers (first and last turn id and"
                    + " sequence, how many), its text and size, how it was written (model or extractive) and how often."
                    + " It is written in the background once a round's commit dropped turns from the context, and"
                    + " extended with only the turns dropped since.")
    @APIResponse(
            responseCode = "200",
            description = "The stored summary",
            content = @Content(schema = @Schema(implementation = HistorySummary.class)))
    @APIResponse(
            responseCode = "404",
            description = "No such conversation in the tenant, or it has no summary yet",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "503",
            description = "Timed out or too many concurrent calls; see Retry-After",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response summary(@Parameter(description = "The conversation id") @PathParam("id") long id)
            throws MemoryException {
        HistorySummary summary = memory.summary(tenants.current(), id);
        if (summary == null) {
            throw new NotFoundException(
                    "summary",
                    Long.toString(id),
                    "Conversation " + id + " has no summary of earlier turns yet: one is written in the background"
                            + " after a round's commit (POST /turns with its compaction member) drops turns from the"
                            + " context.");
        }
        return Response.ok(summary).build();
    }
}
