package org.agentmemory.episodic;

import com.fasterxml.jackson.databind.ObjectWriter;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.api.episodic.EpisodicMemory;
import org.agentmemory.api.episodic.EpisodicMemoryOperations;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.QueryShortening;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.rest.RestJson;
import org.agentmemory.security.Audited;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Episodic memory (spec §10): record episodes, recall similar ones, failure warnings, preferences, room context,
 * export, consolidation marks, expiry and compaction.
 *
 * <p>Namespaces of reads travel as query parameters {@code agentId} (required), {@code userId},
 * {@code sessionId}, {@code roomId}, {@code crewId}; of writes, in the body's {@code namespace}. Fault tolerance
 * (MicroProfile Config overrides, e.g. {@code org.agentmemory.episodic.EpisodesResource/Timeout/value}): 30,000
 * ms per call (recording may wait for a reflection model), 32 concurrent calls, 503 + {@code Retry-After}
 * beyond either. Errors are {@code application/problem+json}.
 */
@Path("episodes")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Episodes", description = "Episodic memory: record, recall, warn")
@Timeout(30_000)
@Bulkhead(32)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class EpisodesResource {

    private static final ObjectWriter JSONL = RestJson.mapper().writerFor(Episode.class);

    @EJB
    EpisodicMemory memory;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Record an episode",
            description =
                    "Spec §10.3 record_episode: importance, failure flag, expiry,"
                            + " reflection (model or heuristic), embedding, storage. Identical content in the namespace is stored once.")
    @APIResponse(
            responseCode = "201",
            description = "Recorded by this request",
            content = @Content(schema = @Schema(implementation = Episode.class)))
    @APIResponse(
            responseCode = "200",
            description = EpisodeResponses.ALREADY_STORED,
            content = @Content(schema = @Schema(implementation = Episode.class)))
    @APIResponse(responseCode = "400", description = "A field breaks a rule")
    public Response record(EpisodicRequests.RecordEpisode body) throws MemoryException {
        bodies.check(body);
        Instant asked = EpisodeResponses.asked();
        Episode stored = memory.recordEpisode(body.toInput(tenants, ""));
        return EpisodeResponses.recorded(stored, asked);
    }

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("batch")
    @Operation(
            summary = "Record episodes in one transaction",
            description = "1 to 1000; embeddings computed in one batch.")
    @APIResponse(
            responseCode = "200",
            description = "The stored episodes, in order",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = Episode.class)))
    @APIResponse(
            responseCode = "400",
            description = "episodes is empty or has more than 1000 items, or a field"
                    + " breaks a rule (field names it, e.g. episodes[2].situation); nothing is recorded")
    public Response recordBatch(EpisodicRequests.RecordBatch body) throws MemoryException {
        bodies.check(body);
        List<EpisodeInput> inputs = new ArrayList<>(body.episodes().size());
        for (int i = 0; i < body.episodes().size(); i++) {
            inputs.add(body.episodes().get(i).toInput(tenants, "episodes[" + i + "]."));
        }
        return Response.ok(memory.recordEpisodes(inputs)).build();
    }

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("tool")
    @Operation(summary = "Record a tool call", description = "Spec §10.3 record_tool_episode.")
    @APIResponse(
            responseCode = "201",
            description = "Recorded by this request",
            content = @Content(schema = @Schema(implementation = Episode.class)))
    @APIResponse(
            responseCode = "200",
            description = EpisodeResponses.ALREADY_STORED,
            content = @Content(schema = @Schema(implementation = Episode.class)))
    @APIResponse(responseCode = "400", description = "A field breaks a rule (the problem names it)")
    public Response recordTool(EpisodicRequests.ToolEpisode body) throws MemoryException {
        bodies.check(body);
        Instant asked = EpisodeResponses.asked();
        return EpisodeResponses.recorded(
                memory.recordToolEpisode(
                        body.namespace().toNamespace(tenants, "namespace."),
                        body.toolName(),
                        body.toolArgs(),
                        body.toolResult(),
                        body.userQuery()),
                asked);
    }

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("crew")
    @Operation(
            summary = "Record a crew run",
            description = "Spec §10.3 record_crew_episode: the crew episode, then one per agent.")
    @APIResponse(
            responseCode = "200",
            description = "The stored episodes, crew first",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = Episode.class)))
    @APIResponse(responseCode = "400", description = "A field breaks a rule (the problem names it)")
    public Response recordCrew(EpisodicRequests.CrewEpisode body) throws MemoryException {
        bodies.check(body);
        return Response.ok(memory.recordCrewEpisode(
                        body.namespace().toNamespace(tenants, "namespace."),
                        body.crewResult(),
                        body.description(),
                        body.perAgent() == null || body.perAgent()))
                .build();
    }

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("lessons")
    @Operation(
            summary = "Record a lesson",
            description = "Spec §10.9 record_lesson; the lesson is stored and embedded.")
    @APIResponse(
            responseCode = "201",
            description = "Recorded by this request",
            content = @Content(schema = @Schema(implementation = Episode.class)))
    @APIResponse(
            responseCode = "200",
            description = EpisodeResponses.ALREADY_STORED,
            content = @Content(schema = @Schema(implementation = Episode.class)))
    @APIResponse(responseCode = "400", description = "A field breaks a rule (the problem names it)")
    public Response recordLesson(EpisodicRequests.Lesson body) throws MemoryException {
        bodies.check(body);
        Instant asked = EpisodeResponses.asked();
        return EpisodeResponses.recorded(
                memory.recordLesson(
                        body.namespace().toNamespace(tenants, "namespace."),
                        body.situation(),
                        body.lesson(),
                        body.category(),
                        body.importance()),
                asked);
    }

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("interactions")
    @Operation(
            summary = "Record an answered question",
            description = "Spec §9.3 record_interaction; trivial queries are skipped.")
    @APIResponse(
            responseCode = "201",
            description = "Recorded by this request",
            content = @Content(schema = @Schema(implementation = Episode.class)))
    @APIResponse(
            responseCode = "200",
            description = EpisodeResponses.ALREADY_STORED,
            content = @Content(schema = @Schema(implementation = Episode.class)))
    @APIResponse(responseCode = "204", description = "The query was trivial; nothing recorded")
    @APIResponse(responseCode = "400", description = "A field breaks a rule (the problem names it)")
    public Response recordInteraction(EpisodicRequests.Interaction body) throws MemoryException {
        bodies.check(body);
        Instant asked = EpisodeResponses.asked();
        Episode stored = memory.recordInteraction(
                body.namespace().toNamespace(tenants, "namespace."), body.query(), body.response());
        return stored == null ? Response.noContent().build() : EpisodeResponses.recorded(stored, asked);
    }

    @POST
    @Path("recall")
    @Operation(
            summary = "Recall similar episodes",
            description = "Spec §10.3 recall_similar in vector, full_text or hybrid"
                    + " mode; the namespace filter applies inside every leg.")
    @APIResponse(
            responseCode = "200",
            description = "Hits, best first: [{episode, score}]",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = EpisodeSearchResult.class)))
    @APIResponse(
            responseCode = "400",
            description = "query is missing or blank, topK is not 1 to 100,"
                    + " scoreThreshold is not -1 to 1, or a namespace id breaks a rule")
    @RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = EpisodicRequests.Recall.class),
                            examples =
                                    @ExampleObject(
                                            name = "failures",
                                            summary = "A user's past failures like the current one",
                                            value = EpisodeDocs.RECALL_EXAMPLE)))
    public Response recall(EpisodicRequests.Recall body) throws MemoryException {
        bodies.check(body);
        List<EpisodeSearchResult> results = memory.recallSimilar(body.toRequest(tenants));
        return QueryShortening.mark(Response.ok(results), body.query()).build();
    }

    @GET
    @Path("warnings")
    @Produces(MediaType.TEXT_PLAIN + ";charset=UTF-8")
    @Operation(
            summary = "Failure warnings",
            description =
                    "Spec §10.3 get_failure_warnings text (MISTAKES TO AVOID: …);"
                            + " the episodic-warnings section of context assembly. Empty body when there is nothing to warn about.")
    @APIResponse(responseCode = "200", description = "The text, text/plain UTF-8")
    @APIResponse(responseCode = "400", description = EpisodeDocs.BAD_NAMESPACE_OR_COUNT)
    public Response warnings(
            @BeanParam NamespaceParams ns,
            @Parameter(description = "The current query") @QueryParam("query") String query,
            @Parameter(description = "1 to 1000, default 5") @QueryParam("max") String max)
            throws MemoryException {
        return text(
                memory.failureWarnings(
                        namespace(ns), query, Params.intParam("max", max, 5, 1, EpisodicMemoryOperations.MAX_LIMIT)),
                query);
    }

    @GET
    @Path("context")
    @Produces(MediaType.TEXT_PLAIN + ";charset=UTF-8")
    @Operation(summary = "Pre-ask context", description = "Spec §10.9: warnings, user preferences, room context.")
    @APIResponse(responseCode = "200", description = "The text, text/plain UTF-8")
    @APIResponse(responseCode = "400", description = EpisodeDocs.BAD_NAMESPACE_OR_COUNT)
    public Response context(
            @BeanParam NamespaceParams ns, @QueryParam("query") String query, @QueryParam("max") String max)
            throws MemoryException {
        return text(
                memory.preAskContext(
                        namespace(ns),
                        query,
                        Params.intParam(
                                "max",
                                max,
                                EpisodicMemoryOperations.DEFAULT_WARNINGS,
                                1,
                                EpisodicMemoryOperations.MAX_LIMIT)),
                query);
    }

    @GET
    @Path("preferences")
    @Operation(summary = "User preferences", description = "Spec §10.3 get_user_preferences, newest first.")
    @APIResponse(
            responseCode = "200",
            description = "Episodes of category user_preference",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = Episode.class)))
    @APIResponse(responseCode = "400", description = EpisodeDocs.BAD_NAMESPACE_OR_COUNT)
    public Response preferences(@BeanParam NamespaceParams ns, @QueryParam("limit") String limit)
            throws MemoryException {
        return Response.ok(memory.userPreferences(
                        namespace(ns), Params.intParam("limit", limit, 10, 1, EpisodicMemoryOperations.MAX_LIMIT)))
                .build();
    }

    @GET
    @Path("room-context")
    @Operation(summary = "Room context", description = "Spec §10.3 get_room_context, newest first.")
    @APIResponse(
            responseCode = "200",
            description = "Recent episodes",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = Episode.class)))
    @APIResponse(
            responseCode = "400",
            description = EpisodeDocs.BAD_NAMESPACE_OR_COUNT + ", or categories names an unknown" + " category")
    public Response roomContext(
            @BeanParam NamespaceParams ns,
            @QueryParam("limit") String limit,
            @Parameter(description = "Comma-separated categories") @QueryParam("categories") String categories)
            throws MemoryException {
        List<EpisodeCategory> wanted = new ArrayList<>();
        if (categories != null && !categories.isBlank()) {
            for (String c : categories.split(",")) {
                try {
                    wanted.add(EpisodeCategory.fromValue(c));
                } catch (IllegalArgumentException e) {
                    throw new InvalidInputException("categories", "enum", e.getMessage());
                }
            }
        }
        return Response.ok(memory.roomContext(
                        namespace(ns),
                        Params.intParam("limit", limit, 10, 1, EpisodicMemoryOperations.MAX_LIMIT),
                        wanted))
                .build();
    }

    @GET
    @Operation(
            summary = "List a namespace's episodes",
            description = "Most recently stored first, a page of at most limit (1 to 1000, default 100) at a time;"
                    + " pass nextCursor as cursor for the next page. Expired episodes not yet deleted are listed.")
    @APIResponse(
            responseCode = "200",
            description = "A page of episodes and the next page's cursor (null on the last page)",
            content = @Content(schema = @Schema(implementation = Page.class)))
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing, an id breaks a rule, limit is not 1 to 1000, or cursor is not one of"
                    + " this listing")
    public Response list(
            @BeanParam NamespaceParams ns,
            @Parameter(description = "Page size, 1 to 1000 (default 100)") @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor)
            throws MemoryException {
        return Response.ok(memory.listEpisodes(
                        namespace(ns),
                        Params.intParam("limit", limit, 100, 1, EpisodicMemoryOperations.MAX_LIMIT),
                        cursor))
                .build();
    }

    @GET
    @Path("count")
    @Operation(summary = "Count a namespace's episodes")
    @APIResponse(
            responseCode = "200",
            description = "{\"count\": n}",
            content = @Content(schema = @Schema(implementation = EpisodeResponses.EpisodeCount.class)))
    @APIResponse(responseCode = "400", description = "agentId is missing, or an id breaks a rule")
    public Response count(@BeanParam NamespaceParams ns) throws MemoryException {
        return Response.ok(new EpisodeResponses.EpisodeCount(memory.countEpisodes(namespace(ns))))
                .build();
    }

    @Audited("episodes.export")
    @GET
    @Path("export")
    @Produces("application/x-ndjson")
    @Operation(
            summary = "Export a namespace as JSONL",
            description = "Spec §10.3 export_episodes: newest first, one episode per line.")
    @APIResponse(responseCode = "200", description = "application/x-ndjson")
    @APIResponse(responseCode = "400", description = EpisodeDocs.BAD_NAMESPACE_OR_COUNT)
    public Response export(@BeanParam NamespaceParams ns, @QueryParam("limit") String limit) throws MemoryException {
        List<Episode> episodes = memory.exportEpisodes(
                namespace(ns), Params.intParam("limit", limit, 1000, 1, EpisodicMemoryOperations.MAX_LIMIT));
        StreamingOutput out = stream -> {
            for (Episode e : episodes) {
                stream.write(JSONL.writeValueAsBytes(e));
                stream.write('\n');
            }
        };
        return Response.ok(out, "application/x-ndjson").build();
    }

    @GET
    // Episode ids are UUIDs; the pattern keeps the literal sub-resources (warnings, context …) out of this one.
    @Path("{episodeId: [0-9a-fA-F-]{36}}")
    @Operation(summary = "Read an episode")
    @APIResponse(
            responseCode = "200",
            description = "The episode",
            content = @Content(schema = @Schema(implementation = Episode.class)))
    @APIResponse(
            responseCode = "404",
            description = "No such episode in the tenant (or the id is not 36 hex digits and" + " dashes)")
    public Response get(@PathParam("episodeId") String episodeId) throws MemoryException {
        return Response.ok(tenants.readable(memory.getEpisode(tenants.current(), episodeId)))
                .build();
    }

    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("consolidated")
    @Operation(
            summary = "Mark episodes consolidated",
            description =
                    "Spec §10.3 mark_consolidated: merges" + " {\"consolidated_into\": pageId} into their metadata.")
    @APIResponse(
            responseCode = "200",
            description = "{\"updated\": n}",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "updated",
                                                            type = SchemaType.INTEGER,
                                                            description =
                                                                    "Episodes found and marked; unknown ids are skipped."))))
    @APIResponse(
            responseCode = "400",
            description = "episodeIds or pageId is missing, episodeIds has more than 1000"
                    + " items, or pageId breaks the id rules")
    public Response consolidated(EpisodicRequests.Consolidated body) throws MemoryException {
        bodies.check(body);
        tenants.unscoped("Marking episodes consolidated");
        return Response.ok(
                        Map.of("updated", memory.markConsolidated(tenants.current(), body.episodeIds(), body.pageId())))
                .build();
    }

    @Audited("episodes.cleanup")
    @POST
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Path("cleanup")
    @Operation(summary = "Delete expired episodes now", description = "Also runs every 15 minutes on a timer.")
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
                                                            description = "Expired episodes deleted."))))
    public Response cleanup() {
        return Response.ok(Map.of("deleted", memory.cleanupExpired())).build();
    }

    private MemoryNamespace namespace(NamespaceParams ns) throws InvalidInputException {
        return ns.toNamespace(tenants);
    }

    /** A text answer; {@code query} is the full-text query it searched by ({@link QueryShortening}), or null. */
    private static Response text(String text, String query) {
        return QueryShortening.mark(Response.ok(text, MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8")), query)
                .build();
    }
}
