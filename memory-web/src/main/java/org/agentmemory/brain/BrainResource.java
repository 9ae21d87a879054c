package org.agentmemory.brain;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.brain.BrainMemory;
import org.agentmemory.api.brain.BrainMemoryOperations;
import org.agentmemory.api.brain.BrainPage;
import org.agentmemory.api.brain.BrainRef;
import org.agentmemory.api.brain.BrainSearchHit;
import org.agentmemory.api.brain.PageWrite;
import org.agentmemory.api.brain.PageWriteResult;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.Problem;
import org.agentmemory.rest.RequestBodies;
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
 * Brain pages over REST (issue 33 items 1 and 6): an agent's brain ({@code agentId} given) or its organisation's
 * ({@code agentId} absent), always in the caller's tenant. Agent ids may contain {@code /}, so they travel in the
 * query or body, never in the path. A token narrowed to an agent reaches that agent's brain and the organisation's;
 * writes need a token not narrowed to a user (brain pages are an agent's knowledge, not a user's data).
 *
 * <p>Fault tolerance: 10,000 ms timeout, 32 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("brain")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Brain", description = "Durable knowledge of an agent and of its organisation, with evidence and history")
@Timeout(10_000)
@Bulkhead(32)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class BrainResource {

    /**
     * Body of {@code POST /brain/pages}.
     *
     * @param agentId    the agent whose brain, or absent for the organisation brain
     * @param title      as {@link PageWrite}
     * @param body       as {@link PageWrite}
     * @param category   as {@link PageWrite}
     * @param confidence as {@link PageWrite}
     * @param evidence   as {@link PageWrite}
     */
    @Schema(description = "Knowledge to write into a page of an agent's brain (agentId) or the organisation's.")
    public record WritePage(
            @Schema(description = "The agent whose brain; absent for the organisation brain.", nullable = true)
            String agentId,

            @Schema(
                    description = "The title; absent for the body's first line (at most 80 code points).",
                    nullable = true)
            String title,

            @Schema(description = "Markdown lines or bullets, one statement each; required, at most 4,000 code points.")
            String body,

            @Schema(description = "lesson, decision, concept or note (default).", nullable = true)
            String category,

            @Schema(description = "0 to 1; default 0.5; below 0.3 the category becomes note.", nullable = true)
            Double confidence,

            @Schema(
                    description = "References supporting it: episode:<id>, turn:<conversation>/<turn>.",
                    nullable = true)
            List<String> evidence) {}

    /**
     * Body of {@code POST /brain/search} and {@code POST /brain/knowledge}.
     *
     * @param agentId   the agent whose brain, or absent for the organisation brain
     * @param query     the query
     * @param topK      1 to 100 (default 5)
     * @param maxTokens the budget of {@code /brain/knowledge}, tokens (default 600)
     */
    @Schema(description = "A search of an agent's brain (agentId) or the organisation's.")
    public record Query(
            @Schema(description = "The agent whose brain; absent for the organisation brain.", nullable = true)
            String agentId,

            @Schema(description = "Words to look for; blank finds nothing.")
            String query,

            @Schema(description = "1 to 100; default 5.", nullable = true)
            Integer topK,

            @Schema(description = "Budget of /brain/knowledge, tokens ≥ 1; default 600.", nullable = true)
            Integer maxTokens) {}

    @EJB
    BrainMemory brains;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @POST
    @Path("pages")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Write knowledge into a brain page (wiki_remember)",
            description = "The page is the one with the same title and category (id mem- + SHA-1(title::category),"
                    + " spec §12.3). Its statements are merged, never overwritten: a statement said again gets the new"
                    + " evidence, a contradicting one (its negation) supersedes the older one, which stays as history.")
    @APIResponse(
            responseCode = "201",
            description = "A new page",
            content = @Content(schema = @Schema(implementation = PageWriteResult.class)))
    @APIResponse(
            responseCode = "200",
            description = "An existing page, updated or unchanged",
            content = @Content(schema = @Schema(implementation = PageWriteResult.class)))
    @APIResponse(
            responseCode = "400",
            description = "body is missing or too long, or category, confidence, an evidence reference or agentId"
                    + " breaks a rule",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response write(WritePage body) throws MemoryException {
        bodies.check(body);
        if (tenants.caller().user() != null) {
            throw new OutOfScopeException(
                    null, "Brain pages are an agent's knowledge; a token narrowed to a user" + " cannot write them.");
        }
        PageWriteResult result = brains.remember(
                brain(body.agentId()),
                new PageWrite(body.title(), body.body(), body.category(), body.confidence(), body.evidence()));
        return Response.status(result.status().equals("created") ? 201 : 200)
                .entity(result)
                .build();
    }

    @GET
    @Path("pages")
    @Operation(summary = "List a brain's pages", description = "Newest first, keyset-paged; current statements.")
    @APIResponse(
            responseCode = "200",
            description = "One page of pages; pass nextCursor back as cursor for the next",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties = {
                                                @SchemaProperty(
                                                        name = "items",
                                                        type = SchemaType.ARRAY,
                                                        implementation = BrainPage.class,
                                                        description = "The brain pages, newest first."),
                                                @SchemaProperty(
                                                        name = "nextCursor",
                                                        type = SchemaType.STRING,
                                                        nullable = true,
                                                        description =
                                                                "Cursor of the next page, or null on the last page.")
                                            })))
    @APIResponse(
            responseCode = "400",
            description = "limit is not 1 to 1000, cursor is not one of ours, or agentId breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response list(
            @Parameter(description = "The agent; absent for the organisation brain") @QueryParam("agentId")
                    String agentId,
            @Parameter(description = "Page size, 1 to 1000 (default 100)") @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor)
            throws MemoryException {
        return Response.ok(brains.listPages(
                        brain(agentId),
                        Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE),
                        cursor))
                .build();
    }

    @GET
    @Path("pages/{pageId}")
    @Operation(
            summary = "Read a brain page",
            description = "Its current statements, or with asOf (ISO-8601) the statements it showed then.")
    @APIResponse(
            responseCode = "200",
            description = "The page",
            content = @Content(schema = @Schema(implementation = BrainPage.class)))
    @APIResponse(
            responseCode = "400",
            description = "asOf is not an ISO-8601 instant, or agentId breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "404",
            description = "No such page in the brain (or none yet at asOf)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response read(
            @Parameter(description = "mem- and 12 hex digits") @PathParam("pageId") String pageId,
            @Parameter(description = "The agent; absent for the organisation brain") @QueryParam("agentId")
                    String agentId,
            @Parameter(description = "An ISO-8601 instant, e.g. 2026-12-01T10:00:00Z") @QueryParam("asOf") String asOf)
            throws MemoryException {
        return Response.ok(brains.getPage(brain(agentId), pageId, instant(asOf)))
                .build();
    }

    @POST
    @Path("search")
    @Operation(
            summary = "Search a brain",
            description = "Full text over titles, summaries and current statements; words OR-ed.")
    @APIResponse(
            responseCode = "200",
            description = "{\"hits\": [...]}, best first",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "hits",
                                                            type = SchemaType.ARRAY,
                                                            implementation = BrainSearchHit.class,
                                                            description = "At most topK pages, best first."))))
    @APIResponse(
            responseCode = "400",
            description = "topK is not 1 to 100, or agentId breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response search(Query body) throws MemoryException {
        bodies.check(body);
        return Response.ok(Map.of("hits", brains.search(brain(body.agentId()), body.query(), topK(body.topK()))))
                .build();
    }

    @POST
    @Path("knowledge")
    @Operation(
            summary = "The brain section of a context",
            description = "Search results packed as stub lines into a token budget (spec §12.4): - [id] title —"
                    + " lead (score=s, ~n tok); counted with the service's tokenizer; the first line always.")
    @APIResponse(
            responseCode = "200",
            description = "{\"knowledge\": \"...\"}; empty when nothing matched",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "knowledge",
                                                            type = SchemaType.STRING,
                                                            description = "The stub lines joined by LF, or empty."))))
    @APIResponse(
            responseCode = "400",
            description = "topK is not 1 to 100, maxTokens is below 1, or agentId breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response knowledge(Query body) throws MemoryException {
        bodies.check(body);
        int budget = body.maxTokens() == null ? BrainMemoryOperations.DEFAULT_KNOWLEDGE_TOKENS : body.maxTokens();
        return Response.ok(Map.of(
                        "knowledge", brains.knowledge(brain(body.agentId()), body.query(), topK(body.topK()), budget)))
                .build();
    }

    /** @return the brain in the caller's tenant; an agent-scoped token reaches its own agent's and the organisation's */
    private BrainRef brain(String agentId) {
        String scope = tenants.caller().agent();
        if (agentId != null && scope != null && !scope.equals(agentId)) {
            throw new OutOfScopeException(
                    "agentId", "agentId names another agent than the one the token is scoped to: '" + scope + "'.");
        }
        return new BrainRef(tenants.current(), agentId);
    }

    private static int topK(Integer topK) {
        return topK == null ? 5 : topK;
    }

    private static Instant instant(String asOf) throws InvalidInputException {
        if (asOf == null) {
            return null;
        }
        try {
            return Instant.parse(asOf);
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(
                    "asOf", "instant", "asOf must be an ISO-8601 instant such as 2026-12-01T10:00:00Z.");
        }
    }
}
