package org.agentmemory.recall;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.recall.ConversationRecall;
import org.agentmemory.api.recall.ReindexStatus;
import org.agentmemory.rest.Problem;
import org.agentmemory.security.Audited;
import org.agentmemory.security.Roles;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The mass reindex of the search indexes (episodes and conversation messages) from the database: start it,
 * then poll its progress. Fault tolerance: 10,000 ms, 4 concurrent calls, 503 + {@code Retry-After} beyond.
 */
@Path("admin/reindex")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Administration", description = "Search index maintenance")
@Timeout(10_000)
@Bulkhead(4)
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = "bearer", scopes = Roles.ADMIN)
public class SearchIndexResource {

    @EJB
    ConversationRecall recall;

    @jakarta.inject.Inject
    org.agentmemory.security.Tenants tenants;

    @Audited("reindex")
    @POST
    @Operation(
            summary = "Start a mass reindex",
            description = "Rebuilds the caller's tenant's documents; with the memory-operator role, every tenant's."
                    + " Runs in the background; a run in progress is not restarted."
                    + " While a merge runs, the reindex starts as soon as it ends (the status stays running)."
                    + " No embedding model runs: vectors are read from the database.")
    @APIResponse(
            responseCode = "202",
            description = "Started (or already running); the status",
            content = @Content(schema = @Schema(implementation = ReindexStatus.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user or agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response start() throws MemoryException {
        tenants.unscoped("Rebuilding the search indexes");
        ReindexStatus status = tenants.caller().hasRole(Roles.OPERATOR)
                ? recall.startReindex()
                : recall.startReindex(tenants.current());
        return Response.accepted(status).build();
    }

    @Audited("merge")
    @POST
    @Path("merge")
    @RolesAllowed(Roles.OPERATOR)
    @SecurityRequirement(name = "bearer", scopes = Roles.OPERATOR)
    @Operation(
            summary = "Merge the search indexes",
            description = "Force-merges every index into one segment in the"
                    + " background (after a bulk import: k-NN search walks one graph per segment). Progress: GET /admin/reindex."
                    + " Not started while a reindex or merge runs. Each server also merges by itself after a bulk write"
                    + " (memory.search.quiet-merge-writes) and nightly (memory.search.merge-hour). Every tenant's"
                    + " index segments are merged at once, so it needs the memory-operator role.")
    @APIResponse(
            responseCode = "202",
            description = "Started (or another run in progress); the status",
            content = @Content(schema = @Schema(implementation = ReindexStatus.class)))
    public Response merge() {
        return Response.accepted(recall.startMerge()).build();
    }

    @GET
    @Operation(
            summary = "Progress of the mass reindex",
            description = "state idle, running, done or failed;" + " entitiesTotal and documentsAdded.")
    @APIResponse(
            responseCode = "200",
            description = "The status",
            content = @Content(schema = @Schema(implementation = ReindexStatus.class)))
    public Response status() {
        return Response.ok(recall.reindexStatus()).build();
    }

    /**
     * Messages still waiting for their vector (background embedding, {@code memory.recall.embedding}).
     *
     * @param userId         only this user's messages, or absent
     * @param conversationId only this conversation's messages, or absent
     * @return {@code {"pending": n}}
     * @throws MemoryException when the tenant id breaks a rule
     */
    @GET
    @Path("embeddings")
    @Operation(
            summary = "Messages waiting for their vector",
            description =
                    "Conversation messages are embedded in the"
                            + " background about a second after they are written; vector and hybrid recall see them afterwards.")
    @APIResponse(
            responseCode = "200",
            description = "{\"pending\": n}",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "pending",
                                                            type = SchemaType.INTEGER,
                                                            description =
                                                                    "Messages in the scope whose vector is not searchable yet."))))
    @APIResponse(
            responseCode = "400",
            description = "conversationId is not a whole number of at least 1, or userId" + " breaks the id rules")
    public Response pendingEmbeddings(
            @jakarta.ws.rs.QueryParam("userId") String userId,
            @jakarta.ws.rs.QueryParam("conversationId") String conversationId)
            throws MemoryException {
        if (tenants.caller().agent() != null) {
            tenants.unscoped("Counting messages waiting for their vector");
        }
        userId = tenants.userId("userId", userId);
        Long conversation = conversationId == null
                ? null
                : org.agentmemory.rest.Params.longParam("conversationId", conversationId, 0, 1, Long.MAX_VALUE);
        return Response.ok(
                        java.util.Map.of("pending", recall.pendingEmbeddings(tenants.current(), userId, conversation)))
                .build();
    }
}
