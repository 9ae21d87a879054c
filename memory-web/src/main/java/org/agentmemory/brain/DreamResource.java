package org.agentmemory.brain;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.brain.DreamCycleReport;
import org.agentmemory.api.brain.DreamCycles;
import org.agentmemory.api.brain.DreamSchedule;
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
 * The dream cycle over REST (issue 33 items 3 and 6): run an agent's cycle now, read its reports, read and change its
 * schedule; always in the caller's tenant. The cycle consolidates an agent's episodes of all its users into the
 * agent's brain, so a token narrowed to a user is refused (403); a token narrowed to an agent reaches that agent only.
 *
 * <p>Fault tolerance: a cycle runs on the request's thread, so {@code POST /brain/cycles} allows 600,000 ms and 4
 * concurrent calls; the reads 10,000 ms and 32. Beyond either: 503 + {@code Retry-After}.
 */
@Path("brain")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Dream cycle", description = "Consolidating an agent's episodes into its brain, on a timer or now")
@Timeout(10_000)
@Bulkhead(32)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class DreamResource {

    /**
     * Body of {@code POST /brain/cycles}.
     *
     * @param agentId the agent
     */
    @Schema(description = "Which agent's cycle to run now.")
    public record RunCycle(
            @Schema(description = "The agent; required unless the token is narrowed to one.")
            String agentId) {}

    /**
     * Body of {@code PUT /brain/schedule}.
     *
     * @param agentId         the agent
     * @param enabled         whether a timer runs the cycle
     * @param intervalSeconds the interval, seconds
     */
    @Schema(description = "An agent's dream schedule.")
    public record ScheduleChange(
            @Schema(description = "The agent; required unless the token is narrowed to one.")
            String agentId,

            @Schema(description = "Whether a timer runs the cycle; required.")
            Boolean enabled,

            @Schema(
                    description = "Interval between cycles, seconds, 1 to 31,536,000; absent keeps the current"
                            + " (default memory.dream.interval-seconds).",
                    nullable = true)
            Long intervalSeconds) {}

    @EJB
    DreamCycles dreams;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @POST
    @Path("cycles")
    @Timeout(600_000)
    @Bulkhead(4)
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Run an agent's dream cycle now",
            description = "Collects the agent's eligible episodes since its watermark, clusters them, distills each"
                    + " group (model or heuristic), merges the knowledge into the agent's brain pages with evidence,"
                    + " marks the episodes consolidated and promotes pages reinforced in enough cycles to the"
                    + " organisation brain (spec §12.2). Runs on this request; answers the cycle's report. An aborted"
                    + " cycle is a report with aborted=true, not an error.")
    @APIResponse(
            responseCode = "200",
            description = "The cycle's report",
            content = @Content(schema = @Schema(implementation = DreamCycleReport.class)))
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing or breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "409",
            description = "The agent's cycle is already running (a server holds its lease)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response run(RunCycle body) throws MemoryException {
        bodies.check(body);
        return Response.ok(dreams.runNow(tenants.current(), agent(body.agentId())))
                .build();
    }

    @GET
    @Path("cycles")
    @Operation(summary = "An agent's cycle reports", description = "Newest first, keyset-paged.")
    @APIResponse(
            responseCode = "200",
            description = "One page of reports; pass nextCursor back as cursor for the next",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties = {
                                                @SchemaProperty(
                                                        name = "items",
                                                        type = SchemaType.ARRAY,
                                                        implementation = DreamCycleReport.class,
                                                        description = "The reports, newest first."),
                                                @SchemaProperty(
                                                        name = "nextCursor",
                                                        type = SchemaType.STRING,
                                                        nullable = true,
                                                        description =
                                                                "Cursor of the next page, or null on the last page.")
                                            })))
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing or breaks the id rules, limit is not 1 to 1000, or cursor is not ours",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response reports(
            @Parameter(description = "The agent") @QueryParam("agentId") String agentId,
            @Parameter(description = "Page size, 1 to 1000 (default 100)") @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor)
            throws MemoryException {
        return Response.ok(dreams.reports(
                        tenants.current(),
                        agent(agentId),
                        Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE),
                        cursor))
                .build();
    }

    @GET
    @Path("schedule")
    @Operation(
            summary = "An agent's dream schedule",
            description = "Its timer, watermark, counters and lease; an agent never scheduled shows the defaults.")
    @APIResponse(
            responseCode = "200",
            description = "The schedule",
            content = @Content(schema = @Schema(implementation = DreamSchedule.class)))
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing or breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response schedule(@Parameter(description = "The agent") @QueryParam("agentId") String agentId)
            throws MemoryException {
        return Response.ok(dreams.schedule(tenants.current(), agent(agentId))).build();
    }

    @PUT
    @Path("schedule")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = "bearer", scopes = Roles.ADMIN)
    @Operation(
            summary = "Enable, disable or re-time an agent's dream cycle",
            description =
                    "Enabling (or changing the interval) makes the cycle due one interval from now; every"
                            + " server's timers pick the change up (this one at once, others within memory.dream.sync-seconds).")
    @APIResponse(
            responseCode = "200",
            description = "The schedule after the change",
            content = @Content(schema = @Schema(implementation = DreamSchedule.class)))
    @APIResponse(
            responseCode = "400",
            description = "agentId or enabled is missing, agentId breaks the id rules, or intervalSeconds is out of"
                    + " range",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response configure(ScheduleChange body) throws MemoryException {
        bodies.check(body);
        if (body.enabled() == null) {
            throw new org.agentmemory.api.InvalidInputException("enabled", "required", "enabled is required.");
        }
        return Response.ok(dreams.configure(
                        tenants.current(), agent(body.agentId()), body.enabled(), body.intervalSeconds()))
                .build();
    }

    @GET
    @Path("schedules")
    @Operation(summary = "The tenant's enabled dream schedules", description = "By agent id, at most 1,000.")
    @APIResponse(
            responseCode = "200",
            description = "{\"schedules\": [...]}",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "schedules",
                                                            type = SchemaType.ARRAY,
                                                            implementation = DreamSchedule.class,
                                                            description = "The enabled schedules."))))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user or an agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response schedules() {
        if (tenants.caller().user() != null || tenants.caller().agent() != null) {
            throw new OutOfScopeException(null, "The tenant's schedules need a token not narrowed to a user or agent.");
        }
        return Response.ok(Map.of("schedules", dreams.enabledSchedules(tenants.current())))
                .build();
    }

    /** @return the agent, narrowed by the token; a token narrowed to a user is refused */
    private String agent(String agentId) {
        if (tenants.caller().user() != null) {
            throw new OutOfScopeException(
                    null,
                    "The dream cycle works on an agent's episodes of all its users; a token narrowed to a user"
                            + " cannot reach it.");
        }
        return tenants.agentId("agentId", agentId);
    }
}
