package org.agentmemory.context;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.context.ContextMemory;
import org.agentmemory.api.context.ContextMemoryOperations;
import org.agentmemory.rest.Problem;
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
 * The recovery tool {@code read_omitted_content} over HTTP (spec §7.4), for agents that offer it to their model:
 * {@code GET /conversations/{id}/omitted?contentId=…} or {@code ?turnId=…}. It answers 200 {@code text/plain}
 * with the tool's exact text in every case the tool defines (content, blocks, or one of its messages), because
 * that text is what the model should read. The strict per-id read with 404 is
 * {@code GET /conversations/{id}/omissions/{contentId}}.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 64 concurrent calls, 503 + {@code Retry-After} (a problem body) beyond
 * either.
 */
@Path("conversations/{id}/omitted")
@ApplicationScoped
@Tag(name = "Context", description = "Histories compacted into a model's token budget; context assembly")
@Timeout(10_000)
@Bulkhead(64)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class OmittedContentResource {

    @EJB
    ContextMemory memory;

    @Inject
    Tenants tenants;

    /**
     * @param id        the conversation
     * @param contentId the content id, or absent
     * @param turnId    the turn id, or absent; used when {@code contentId} is absent
     * @return 200 text/plain UTF-8: the tool's answer
     */
    @GET
    @Produces(MediaType.TEXT_PLAIN + ";charset=UTF-8")
    @Operation(
            summary = "read_omitted_content: recover content a compaction left out",
            description = "With contentId: the exact stored content, or 'Omitted content {id} is unknown or may have"
                    + " expired — re-run the tool to regenerate it.' With turnId (and no contentId): every omitted"
                    + " content of the turn as <omitted id=\"…\"> blocks joined by LF, or 'No omitted content is known"
                    + " for turn {turnId} — it may have expired; re-run the tool.' With neither: 'Provide content_id"
                    + " (om_…) or turn_id.' For an unknown conversation (no scope): 'read_omitted_content is"
                    + " unavailable in this context (no active conversation scope).'")
    @APIResponse(
            responseCode = "200",
            description = "The tool's answer, text/plain UTF-8",
            content = @Content(mediaType = MediaType.TEXT_PLAIN, schema = @Schema(implementation = String.class)))
    @APIResponse(
            responseCode = "404",
            description =
                    "id is not a whole number (an unknown conversation is answered" + " with 200 and the tool's text)")
    @APIResponse(
            responseCode = "503",
            description = "Timed out or too many concurrent calls; see Retry-After",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response read(
            @Parameter(description = "The conversation id") @PathParam("id") long id,
            @Parameter(description = "om_ + 16 hex digits") @QueryParam("contentId") String contentId,
            @Parameter(description = "A turn id; used only without contentId") @QueryParam("turnId") String turnId) {
        String answer;
        try {
            tenants.checkConversation(id);
            answer = memory.readOmittedContent(tenants.current(), id, contentId, turnId);
        } catch (NotFoundException outOfScope) {
            // Another user's conversation reads as one that does not exist.
            answer = ContextMemoryOperations.UNAVAILABLE_MESSAGE;
        }
        return Response.ok(answer, MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8"))
                .build();
    }
}
