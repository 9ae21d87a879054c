package org.agentmemory.conversation;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.VersionConflictException;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.ConversationMetadata;
import org.agentmemory.api.conversation.ConversationSummary;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.conversation.TurnPage;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.Problem;
import org.agentmemory.rest.Problems;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.security.Audited;
import org.agentmemory.security.ConversationIdScoped;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Conversation histories by the service's conversation id, and listing by user (spec §11).
 *
 * <p>Fault tolerance (values overridable with MicroProfile Config, e.g.
 * {@code org.agentmemory.conversation.ConversationsResource/Timeout/value=5000}): each call times out after
 * 10,000 ms, at most 64 run at once, and either limit answers 503 with {@code Retry-After}.
 * Errors are {@code application/problem+json}: 400 naming the field, 404, 409/412 on version conflicts, 413.
 */
@ConversationIdScoped
@Path("conversations")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Conversations", description = "Conversation histories and their turns")
@Timeout(10_000)
@Bulkhead(64)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class ConversationsResource {

    /** The 404 of every operation on one conversation. */
    static final String NO_CONVERSATION = "No such conversation in the tenant, or id is not a whole number";

    @EJB
    ConversationMemory memory;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @Context
    UriInfo uri;

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Create a conversation history",
            description =
                    "Creates an empty history for (userId, sessionId, chatbotId), or returns the existing one unchanged.")
    @APIResponse(
            responseCode = "201",
            description = "Created; Location names the conversation",
            content = @Content(schema = @Schema(implementation = ConversationHistory.class)))
    @APIResponse(
            responseCode = "200",
            description = "It already existed; returned unchanged",
            content = @Content(schema = @Schema(implementation = ConversationHistory.class)))
    @APIResponse(
            responseCode = "400",
            description = "An id breaks a rule",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response create(ConversationRequests.CreateConversation body) throws MemoryException {
        bodies.check(body);
        ConversationKey key = tenants.key("", body.chatbotId(), body.userId(), body.sessionId());
        boolean existed;
        try {
            memory.findConversationId(key);
            existed = true;
        } catch (NotFoundException e) {
            existed = false;
        }
        ConversationHistory history = memory.createHistory(key, body.metadata());
        if (existed) {
            return Response.ok(history).tag(etag(history.version())).build();
        }
        return Response.created(URI.create("conversations/" + history.conversationId()))
                .entity(history)
                .tag(etag(history.version()))
                .build();
    }

    @GET
    @Operation(
            summary = "List a user's conversations",
            description = "Newest first, keyset-paged (spec §11 list_sessions).")
    @APIResponse(
            responseCode = "200",
            description = "One page; pass nextCursor back as cursor for the next",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties = {
                                                @SchemaProperty(
                                                        name = "items",
                                                        type = SchemaType.ARRAY,
                                                        implementation = ConversationSummary.class,
                                                        description =
                                                                "The conversations of this page, newest first; never null."),
                                                @SchemaProperty(
                                                        name = "nextCursor",
                                                        type = SchemaType.STRING,
                                                        description =
                                                                "Cursor of the next page, or null on the last page.")
                                            })))
    @APIResponse(
            responseCode = "400",
            description =
                    "userId is missing, limit is not 1 to 1000, cursor is not one of" + " ours, or an id breaks a rule")
    public Response list(
            @Parameter(description = "The user (required)") @QueryParam("userId") String userId,
            @Parameter(description = "Only this agent's conversations; absent for every agent's")
                    @QueryParam("chatbotId")
                    String chatbotId,
            @Parameter(description = "Page size, 1 to 1000 (default 100)") @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor)
            throws MemoryException {
        Page<ConversationSummary> page = memory.listSessions(
                tenants.current(),
                Params.required("userId", tenants.userId("userId", userId)),
                tenants.agentId("chatbotId", chatbotId),
                Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE),
                cursor);
        return Response.ok(page).build();
    }

    @GET
    @Path("lookup")
    @Operation(
            summary = "Get a history by its key",
            description = "All turns in sequence order (spec §11 get_history).")
    @APIResponse(
            responseCode = "200",
            description = "The history",
            content = @Content(schema = @Schema(implementation = ConversationHistory.class)))
    @APIResponse(responseCode = "400", description = "userId or sessionId is missing, or an id breaks a rule")
    @APIResponse(responseCode = "404", description = "No such conversation")
    public Response lookup(
            @QueryParam("userId") String userId,
            @QueryParam("sessionId") String sessionId,
            @QueryParam("chatbotId") String chatbotId)
            throws MemoryException {
        ConversationKey key = tenants.key(
                "",
                chatbotId,
                Params.required("userId", tenants.userId("userId", userId)),
                Params.required("sessionId", sessionId));
        ConversationHistory history = memory.getHistory(key);
        return Response.ok(history).tag(etag(history.version())).build();
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Get a history", description = "All turns in sequence order.")
    @APIResponse(
            responseCode = "200",
            description = "The history",
            content = @Content(schema = @Schema(implementation = ConversationHistory.class)))
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    public Response get(@PathParam("id") long id) throws MemoryException {
        ConversationHistory history = memory.getHistoryById(tenants.current(), id);
        return Response.ok(history).tag(etag(history.version())).build();
    }

    @GET
    @Path("{id}/turns")
    @Operation(
            summary = "Read a slice of turns",
            description = "Turns in sequence order, at most limit (1 to 1000, default 100): those after the"
                    + " sequence 'after', or after the position of 'cursor' (the nextCursor of the previous slice).")
    @APIResponse(
            responseCode = "200",
            description = "The slice",
            content = @Content(schema = @Schema(implementation = TurnPage.class)))
    @APIResponse(
            responseCode = "400",
            description = "after is not a whole number of at least 0, limit is not 1 to 1000, cursor is not one of"
                    + " this listing, or both after and cursor are given")
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    public Response turns(
            @PathParam("id") long id,
            @QueryParam("after") String after,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor)
            throws MemoryException {
        TurnPage page = memory.getTurns(
                tenants.current(),
                id,
                Params.turnPosition(after, cursor),
                Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE));
        return Response.ok(page).build();
    }

    @GET
    @Path("{id}/turns/{sequence}")
    @Operation(
            summary = "Read one turn",
            description = "The turn with this sequence number (1-based, assigned at"
                    + " write time; the Location of a 201 from adding a turn names it).")
    @APIResponse(
            responseCode = "200",
            description = "The turn",
            content = @Content(schema = @Schema(implementation = TurnRecord.class)))
    @APIResponse(
            responseCode = "400",
            description = "sequence is not a whole number of at least 1",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "404",
            description = "No such conversation (or id is not a whole number), or it holds"
                    + " no turn with this sequence (never written, or cleared)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response turn(@PathParam("id") long id, @PathParam("sequence") String sequence) throws MemoryException {
        long seq = Params.longParam("sequence", sequence, 0, Long.MIN_VALUE, Long.MAX_VALUE);
        return Response.ok(memory.getTurn(tenants.current(), id, seq)).build();
    }

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("{id}/turns")
    @Operation(
            summary = "Add a turn to this conversation",
            description = "Normalized, counted and sequenced in one transaction; idempotent on turnId.")
    @APIResponse(
            responseCode = "201",
            description = "Stored; Location names the turn (GET /conversations/{id}/turns/{sequence})",
            content = @Content(schema = @Schema(implementation = AppendedTurn.class)))
    @APIResponse(
            responseCode = "200",
            description = "A turn with this turnId already existed; nothing written",
            content = @Content(schema = @Schema(implementation = AppendedTurn.class)))
    @APIResponse(responseCode = "400", description = "A field of the turn breaks a rule (the problem names it)")
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    public Response addTurn(@PathParam("id") long id, TurnRecord turn) throws MemoryException {
        bodies.check(turn);
        ConversationKey key = memory.getSummary(tenants.current(), id).key();
        return TurnsResource.answer(memory.addTurn(key, turn));
    }

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("{id}/turns/batch")
    @Operation(summary = "Add turns in order", description = "All or nothing, in one transaction; 1 to 1000 turns.")
    @APIResponse(
            responseCode = "200",
            description = "One result per turn, in order",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = AppendedTurn.class)))
    @APIResponse(
            responseCode = "400",
            description = "turns is empty or has more than 1000 items, or a turn breaks a"
                    + " rule (field names it, e.g. turns[3].userMessage); nothing is written")
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    public Response addTurns(@PathParam("id") long id, ConversationRequests.TurnBatch body) throws MemoryException {
        bodies.check(body);
        ConversationKey key = memory.getSummary(tenants.current(), id).key();
        List<AppendedTurn> appended = memory.addTurns(key, body.turns());
        return Response.ok(appended).build();
    }

    @Audited("conversation.clear")
    @DELETE
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("{id}/turns")
    @Operation(
            summary = "Clear a history",
            description = "Removes every turn; keeps the conversation and its metadata.")
    @APIResponse(
            responseCode = "200",
            description = "How many turns were removed",
            content = @Content(schema = @Schema(implementation = ConversationRequests.Cleared.class)))
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    public Response clear(@PathParam("id") long id) throws MemoryException {
        long removed = memory.clearHistory(tenants.current(), id);
        return Response.ok(new ConversationRequests.Cleared(id, removed)).build();
    }

    @Audited("conversation.delete")
    @DELETE
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("{id}")
    @Operation(summary = "Delete a history", description = "Deletes the conversation and everything stored under it.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    public Response delete(@PathParam("id") long id) throws MemoryException {
        if (!memory.deleteHistory(tenants.current(), id)) {
            throw new NotFoundException(
                    "conversation",
                    Long.toString(id),
                    "Conversation " + id + " does not exist in tenant '" + tenants.current() + "'.");
        }
        return Response.noContent().build();
    }

    @GET
    @Path("{id}/metadata")
    @Operation(summary = "Read the metadata", description = "The ETag is the version; send it back in If-Match.")
    @APIResponse(
            responseCode = "200",
            description = "Metadata and version",
            content = @Content(schema = @Schema(implementation = ConversationMetadata.class)))
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    public Response metadata(@PathParam("id") long id) throws MemoryException {
        ConversationMetadata metadata = memory.getMetadata(tenants.current(), id);
        return Response.ok(metadata).tag(etag(metadata.version())).build();
    }

    @PUT
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("{id}/metadata")
    @Operation(
            summary = "Replace the metadata",
            description =
                    "With If-Match: only if the version is still the one read (412 otherwise); without: unconditionally.")
    @APIResponse(
            responseCode = "200",
            description = "Metadata and new version; the ETag is the new version",
            content = @Content(schema = @Schema(implementation = ConversationMetadata.class)))
    @APIResponse(
            responseCode = "400",
            description =
                    "If-Match is not an ETag of this API (e.g. \"7\"), or the body is"
                            + " not a JSON object or breaks a rule (invalid text, over 1,048,576 code points of keys and values)")
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    @APIResponse(
            responseCode = "412",
            description = "If-Match does not match the current version; nothing written",
            headers =
                    @Header(
                            name = "ETag",
                            description = "The version stored now",
                            schema = @Schema(type = SchemaType.STRING)))
    public Response replaceMetadata(
            @PathParam("id") long id, @HeaderParam("If-Match") String ifMatch, Map<String, Object> metadata)
            throws MemoryException {
        bodies.check(metadata);
        long expected = expectedVersion(ifMatch);
        try {
            ConversationMetadata updated = memory.updateMetadata(tenants.current(), id, metadata, expected);
            return Response.ok(updated).tag(etag(updated.version())).build();
        } catch (VersionConflictException e) {
            return Problems.of(412, e.kind(), "Precondition failed", e.getMessage(), "If-Match", "version", uri)
                    .tag(etag(e.actualVersion()))
                    .build();
        }
    }

    @PATCH
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("{id}/metadata")
    @Consumes({"application/merge-patch+json", MediaType.APPLICATION_JSON})
    @Operation(
            summary = "Merge into the metadata",
            description =
                    "RFC 7396 JSON merge patch (null removes a key)."
                            + " Concurrent writers of different keys never lose each other's updates: each merge reads the metadata"
                            + " under the conversation's row lock, so concurrent merges wait for each other; a compare-and-set that"
                            + " still finds another version is retried up to memory.metadata.merge-attempts times, then answered 409.")
    @APIResponse(
            responseCode = "200",
            description = "Metadata and new version",
            content = @Content(schema = @Schema(implementation = ConversationMetadata.class)))
    @APIResponse(
            responseCode = "400",
            description = "The body is not a JSON object or breaks a rule (invalid text,"
                    + " over 1,048,576 code points of keys and values)")
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    @APIResponse(
            responseCode = "409",
            description = "Every compare-and-set attempt found another version; nothing" + " written",
            headers =
                    @Header(
                            name = "ETag",
                            description = "The version stored now",
                            schema = @Schema(type = SchemaType.STRING)))
    public Response mergeMetadata(@PathParam("id") long id, Map<String, Object> patch) throws MemoryException {
        bodies.check(patch);
        ConversationMetadata merged = memory.mergeMetadata(tenants.current(), id, patch);
        return Response.ok(merged).tag(etag(merged.version())).build();
    }

    @Audited("conversation.export")
    @GET
    @Path("{id}/export")
    @Produces(JsonlWriter.MEDIA_TYPE)
    @Operation(summary = "Export a conversation as JSONL", description = "One line per turn, the import format.")
    @APIResponse(responseCode = "200", description = "application/x-ndjson stream")
    @APIResponse(responseCode = "404", description = NO_CONVERSATION)
    public Response export(@PathParam("id") long id) throws MemoryException {
        ConversationSummary summary = memory.getSummary(tenants.current(), id);
        StreamingOutput body =
                out -> new JsonlWriter(memory, tenants.current(), out).writeConversation(summary.conversationId());
        return Response.ok(body, JsonlWriter.MEDIA_TYPE).build();
    }

    static EntityTag etag(long version) {
        return Params.etag(version);
    }

    /** @return the version named by If-Match, or -1 for none or {@code *} */
    static long expectedVersion(String ifMatch) throws InvalidInputException {
        return Params.ifMatchVersion(ifMatch);
    }
}
