package org.agentmemory.working;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.working.ClearedSession;
import org.agentmemory.api.working.ContextPop;
import org.agentmemory.api.working.ContextStack;
import org.agentmemory.api.working.MemoryTier;
import org.agentmemory.api.working.NewWorkingItem;
import org.agentmemory.api.working.StoredWorkingItem;
import org.agentmemory.api.working.WorkingItem;
import org.agentmemory.api.working.WorkingItemChange;
import org.agentmemory.api.working.WorkingItemFilter;
import org.agentmemory.api.working.WorkingMemory;
import org.agentmemory.api.working.WorkingMemoryOperations;
import org.agentmemory.api.working.WorkingSearchHit;
import org.agentmemory.api.working.WorkingSessionRef;
import org.agentmemory.api.working.WorkingSummary;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.RequestBodies;
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
 * Working memory over REST (issue 35 item 1, seed 003): an agent's items and context stack for one session, in the
 * caller's tenant. The session is named by the query parameters {@code agentId} (the token's agent when it is narrowed
 * to one and the request names none) and {@code sessionId}; ids may contain {@code /}, so they never travel in paths.
 * Working memory belongs to an agent's session, not to a user: a token narrowed to a user gets 403. Clearing a session
 * is audited with its agent id.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 32 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("working-memory")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Working memory", description = "An agent's short-term and long-term items and context stack per session")
@Timeout(10_000)
@Bulkhead(32)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class WorkingMemoryResource {

    private static final String AGENT = "The agent; the token's agent when absent and the token is narrowed to one;"
            + " required otherwise (1 to 128 code points).";
    private static final String SESSION = "The session; required, 1 to 128 code points.";
    private static final String SESSION_400 = "agentId or sessionId is missing or breaks the id rules";
    private static final String SESSION_403 = "The token is narrowed to a user, or to another agent";
    private static final String NO_ITEM = "The session holds no such item (never stored, evicted, deleted, or another"
            + " session's, agent's or tenant's)";

    @EJB
    WorkingMemory memory;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    /** @return the session in the caller's tenant */
    private WorkingSessionRef session(String agentId, String sessionId) throws InvalidInputException {
        if (tenants.caller().user() != null) {
            throw new OutOfScopeException(
                    null,
                    "Working memory belongs to an agent's session, not to a user; a token narrowed to a user cannot"
                            + " reach it.");
        }
        String agent = tenants.agentId("agentId", agentId);
        if (agent == null) {
            throw new InvalidInputException(
                    "agentId", "required", "The query parameter agentId is required: the agent whose session.");
        }
        return new WorkingSessionRef(tenants.current(), agent, Params.required("sessionId", sessionId));
    }

    @POST
    @Path("items")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Store an item",
            description = "Attaches the current context frame (top of the stack). Importance at or above the"
                    + " importance threshold (default 0.7), or longTerm, stores it long-term; otherwise short-term,"
                    + " where the oldest items beyond the capacity (default 20) are evicted.")
    @APIResponse(
            responseCode = "201",
            description = "The stored item and the ids evicted for it",
            content = @Content(schema = @Schema(implementation = StoredWorkingItem.class)))
    @APIResponse(
            responseCode = "400",
            description = "content is missing, blank or too long, metadata is too large, importance is not 0 to 1, or"
                    + " " + SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    public Response store(
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId,
            WorkingMemoryRequests.StoreWorkingItem body)
            throws MemoryException {
        WorkingSessionRef session = session(agentId, sessionId);
        bodies.check(body);
        StoredWorkingItem stored = memory.store(
                session, new NewWorkingItem(body.content(), body.metadata(), body.importance(), body.longTerm()));
        return Response.created(location(session, stored.item().itemId()))
                .entity(stored)
                .build();
    }

    /** @return the item's URI relative to the application's base ({@code /api/v1/}) */
    private static URI location(WorkingSessionRef session, long itemId) {
        return URI.create("working-memory/items/" + itemId + "?agentId=" + encode(session.agentId()) + "&sessionId="
                + encode(session.sessionId()));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @GET
    @Path("items/{itemId}")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Read an item",
            description = "Counts an access (hence memory-writer); a short-term item read as often as the promotion"
                    + " threshold (default 3) moves to long-term.")
    @APIResponse(
            responseCode = "200",
            description = "The item after the access",
            content = @Content(schema = @Schema(implementation = WorkingItem.class)))
    @APIResponse(responseCode = "400", description = SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    @APIResponse(responseCode = "404", description = NO_ITEM)
    public Response get(
            @Parameter(description = "The item's id") @PathParam("itemId") long itemId,
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId)
            throws MemoryException {
        return Response.ok(memory.get(session(agentId, sessionId), itemId)).build();
    }

    @PATCH
    @Path("items/{itemId}")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Change an item",
            description = "Replaces the content, metadata or importance given; not an access. Raising a short-term"
                    + " item's importance to the importance threshold moves it to long-term.")
    @APIResponse(
            responseCode = "200",
            description = "The item afterwards",
            content = @Content(schema = @Schema(implementation = WorkingItem.class)))
    @APIResponse(
            responseCode = "400",
            description =
                    "content is blank or too long, metadata is too large, importance is not 0 to 1, or " + SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    @APIResponse(responseCode = "404", description = NO_ITEM)
    public Response update(
            @Parameter(description = "The item's id") @PathParam("itemId") long itemId,
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId,
            WorkingMemoryRequests.ChangeWorkingItem body)
            throws MemoryException {
        WorkingSessionRef session = session(agentId, sessionId);
        bodies.check(body);
        return Response.ok(memory.update(
                        session, itemId, new WorkingItemChange(body.content(), body.metadata(), body.importance())))
                .build();
    }

    @DELETE
    @Path("items/{itemId}")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(summary = "Delete an item", description = "Deletes one item of either tier.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "400", description = SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    @APIResponse(responseCode = "404", description = NO_ITEM)
    public Response delete(
            @Parameter(description = "The item's id") @PathParam("itemId") long itemId,
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId)
            throws MemoryException {
        memory.delete(session(agentId, sessionId), itemId);
        return Response.noContent().build();
    }

    @GET
    @Path("search")
    @Operation(
            summary = "Search a session's items",
            description = "Full text over the content (words OR-ed) of both tiers or one, re-ranked by the current"
                    + " context: relevance = 0.7 × text score (scaled to the best hit) + 0.3 × context match (0.5 for"
                    + " the same frame type, up to 0.5 for shared words of the frames' data) while the stack holds a"
                    + " frame. Not an access.")
    @APIResponse(
            responseCode = "200",
            description = "{\"hits\": [...]}, most relevant first",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "hits",
                                                            type = SchemaType.ARRAY,
                                                            implementation = WorkingSearchHit.class,
                                                            description = "At most limit hits, most relevant first."))))
    @APIResponse(
            responseCode = "400",
            description = "q is missing or longer than 4,096 code points, limit is not 1 to 100, tier is unknown, or "
                    + SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    public Response search(
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId,
            @Parameter(description = "Words to look for; required; blank finds nothing", required = true)
                    @QueryParam("q")
                    String q,
            @Parameter(description = "short_term or long_term; absent for both") @QueryParam("tier") String tier,
            @Parameter(description = "Most hits, 1 to 100 (default 10)") @QueryParam("limit") String limit)
            throws MemoryException {
        WorkingSessionRef session = session(agentId, sessionId);
        return Response.ok(Map.of(
                        "hits",
                        memory.search(
                                session,
                                Params.required("q", q),
                                MemoryTier.parse("tier", tier),
                                Params.intParam(
                                        "limit",
                                        limit,
                                        WorkingMemoryOperations.DEFAULT_LIMIT,
                                        1,
                                        WorkingMemoryOperations.MAX_LIMIT))))
                .build();
    }

    @POST
    @Path("retrieve")
    @Operation(
            summary = "Retrieve items by filter",
            description = "Items whose metadata holds every key and value given, of a tier, of at least an"
                    + " importance; short-term first, each tier newest first. Not an access.")
    @APIResponse(
            responseCode = "200",
            description = "{\"items\": [...]}",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "items",
                                                            type = SchemaType.ARRAY,
                                                            implementation = WorkingItem.class,
                                                            description = "At most limit items."))))
    @APIResponse(
            responseCode = "400",
            description = "A metadata value is not a string, number or boolean, metadata names more than 32 keys,"
                    + " tier is unknown, minImportance is not 0 to 1, limit is not 1 to 100, or " + SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    public Response retrieve(
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId,
            WorkingMemoryRequests.WorkingItemQuery body)
            throws MemoryException {
        WorkingSessionRef session = session(agentId, sessionId);
        bodies.check(body);
        WorkingItemFilter filter = new WorkingItemFilter(
                body.metadata(), MemoryTier.parse("tier", body.tier()), body.minImportance(), body.limit());
        return Response.ok(Map.of("items", memory.retrieve(session, filter))).build();
    }

    @DELETE
    @Path("session")
    @Audited("working.session.clear")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Clear a session",
            description = "Deletes every item of the session, of both tiers, and its context stack; zeros when"
                    + " nothing was there.")
    @APIResponse(
            responseCode = "200",
            description = "What was deleted",
            content = @Content(schema = @Schema(implementation = ClearedSession.class)))
    @APIResponse(responseCode = "400", description = SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    public Response clear(
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId)
            throws MemoryException {
        return Response.ok(memory.clear(session(agentId, sessionId))).build();
    }

    @POST
    @Path("context")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Push a context frame",
            description = "The frame becomes the current context: items stored from now on carry it, and searches"
                    + " favour items stored under a similar one. At most 32 frames.")
    @APIResponse(
            responseCode = "200",
            description = "The stack afterwards, bottom first",
            content = @Content(schema = @Schema(implementation = ContextStack.class)))
    @APIResponse(
            responseCode = "400",
            description = "type is missing or breaks the id rules, data is too large, the stack holds 32 frames"
                    + " already, or " + SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    public Response push(
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId,
            WorkingMemoryRequests.PushContextFrame body)
            throws MemoryException {
        WorkingSessionRef session = session(agentId, sessionId);
        bodies.check(body);
        return Response.ok(memory.pushContext(session, body.type(), body.data()))
                .build();
    }

    @DELETE
    @Path("context/top")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(summary = "Pop the context frame", description = "Removes the top frame; popped is null when none.")
    @APIResponse(
            responseCode = "200",
            description = "The frame popped and the stack afterwards",
            content = @Content(schema = @Schema(implementation = ContextPop.class)))
    @APIResponse(responseCode = "400", description = SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    public Response pop(
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId)
            throws MemoryException {
        return Response.ok(memory.popContext(session(agentId, sessionId))).build();
    }

    @GET
    @Path("context")
    @Operation(summary = "Read the context stack", description = "Bottom first; the last frame is the current one.")
    @APIResponse(
            responseCode = "200",
            description = "The stack; empty for a session never written",
            content = @Content(schema = @Schema(implementation = ContextStack.class)))
    @APIResponse(responseCode = "400", description = SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    public Response stack(
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId)
            throws MemoryException {
        return Response.ok(memory.contextStack(session(agentId, sessionId))).build();
    }

    @GET
    @Path("summary")
    @Operation(
            summary = "Summarize a session",
            description = "The top 3 frames of the context stack, the 5 most recent short-term items and up to 3"
                    + " long-term items of importance ≥ 0.8, with the text for a prompt (lines cut to 100 code"
                    + " points).")
    @APIResponse(
            responseCode = "200",
            description = "The summary",
            content = @Content(schema = @Schema(implementation = WorkingSummary.class)))
    @APIResponse(responseCode = "400", description = SESSION_400)
    @APIResponse(responseCode = "403", description = SESSION_403)
    public Response summary(
            @Parameter(description = AGENT) @QueryParam("agentId") String agentId,
            @Parameter(description = SESSION, required = true) @QueryParam("sessionId") String sessionId)
            throws MemoryException {
        return Response.ok(memory.summary(session(agentId, sessionId))).build();
    }
}
