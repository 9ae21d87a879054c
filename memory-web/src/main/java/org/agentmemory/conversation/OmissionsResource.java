package org.agentmemory.conversation;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.rest.Params;
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
 * The omission store of one conversation (spec §7): offloaded tool outputs, inputs and error texts, exactly as the
 * client sent them, and the list of a turn's omissions. Fault tolerance as {@link ConversationsResource}.
 */
@ConversationIdScoped
@Path("conversations/{id}/omissions")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Conversations", description = "Conversation histories and their turns")
@Timeout(10_000)
@Bulkhead(64)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class OmissionsResource {

    private static final String CURSOR_KIND = "o1";

    @EJB
    ConversationMemory memory;

    @Inject
    Tenants tenants;

    @GET
    @Path("{contentId}")
    @Produces(MediaType.TEXT_PLAIN + ";charset=UTF-8")
    @Operation(
            summary = "Read omitted content",
            description = "The exact bytes of an offloaded tool output, input (as JSON) or error text (spec §7),"
                    + " scoped to this conversation.")
    @APIResponse(responseCode = "200", description = "The content, text/plain UTF-8")
    @APIResponse(
            responseCode = "404",
            description = "Unknown in this conversation, or expired; or no such conversation")
    public Response omission(@PathParam("id") long id, @PathParam("contentId") String contentId)
            throws MemoryException {
        return Response.ok(
                        memory.getOmission(tenants.current(), id, contentId),
                        MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8"))
                .build();
    }

    @HEAD
    @Path("{contentId}")
    @Operation(
            summary = "Probe omitted content",
            description = "200 when retrievable, 404 otherwise; loads no content.")
    @APIResponse(responseCode = "200", description = "Retrievable")
    @APIResponse(responseCode = "404", description = "Unknown in this conversation, expired, or no such conversation")
    public Response probeOmission(@PathParam("id") long id, @PathParam("contentId") String contentId)
            throws MemoryException {
        boolean present =
                memory.probeOmissions(tenants.current(), id, List.of(contentId)).getOrDefault(contentId, false);
        return Response.status(present ? 200 : 404).build();
    }

    @GET
    @Operation(
            summary = "List a turn's omissions",
            description = "Content ids in insertion order (spec §7.2 list_by_turn), a page of at most limit (1 to"
                    + " 1000, default 100) at a time; nextCursor names the next page.")
    @APIResponse(
            responseCode = "200",
            description = "A page of content ids (om_ and 16 hex digits), in insertion order",
            content = @Content(schema = @Schema(implementation = Page.class)))
    @APIResponse(
            responseCode = "400",
            description = "turnId is missing, limit is not 1 to 1000, or cursor is not one of this listing")
    @APIResponse(responseCode = "404", description = ConversationsResource.NO_CONVERSATION)
    public Response omissions(
            @PathParam("id") long id,
            @Parameter(description = "The turn (required)") @QueryParam("turnId") String turnId,
            @Parameter(description = "Page size, 1 to 1000 (default 100)") @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor)
            throws MemoryException {
        int size = Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE);
        int from = position(cursor);
        List<String> all = memory.listOmissions(tenants.current(), id, Params.required("turnId", turnId));
        int to = Math.min(all.size(), from + size);
        List<String> items = from >= all.size() ? List.of() : all.subList(from, to);
        String next = to < all.size() ? Page.cursor(CURSOR_KIND, Integer.toString(to)) : null;
        return Response.ok(new Page<>(items, next)).build();
    }

    /** @return the position a cursor names, 0 for none */
    private static int position(String cursor) throws InvalidInputException {
        if (cursor == null) {
            return 0;
        }
        String position = Page.position(CURSOR_KIND, cursor);
        try {
            int value = position == null ? -1 : Integer.parseInt(position);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidInputException(
                "cursor",
                "cursor-format",
                "cursor is not a cursor of this listing; pass the nextCursor of the previous page, or none for the"
                        + " first page.");
    }
}
