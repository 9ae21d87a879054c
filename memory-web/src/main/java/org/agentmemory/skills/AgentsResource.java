package org.agentmemory.skills;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
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
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.skills.AgentRegistration;
import org.agentmemory.api.skills.AgentRegistry;
import org.agentmemory.api.skills.RelevantAgent;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.Problem;
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
 * The agents of the caller's tenant over REST (issue 35 item 3; spec §9.5): register an agent with the domain it
 * covers (and whether the dream cycle extracts its skills), list and remove registrations, and ask the cross-domain
 * router which other agents a query is routed to. Registrations are the tenant's configuration: changing them needs
 * {@code memory-admin} and a token not narrowed to a user (one narrowed to an agent changes that agent only); the
 * listing needs a token not narrowed at all.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 32 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("agents")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Agents", description = "The agents of a tenant, their domains, and the cross-domain router")
@Timeout(10_000)
@Bulkhead(32)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class AgentsResource {

    private static final String AGENT = "The agent; required unless the token is narrowed to one.";

    /**
     * Body of {@code PUT /agents}.
     *
     * @param agentId           the agent
     * @param domainDescription what it covers, or absent
     * @param skillAutoExtract  whether the dream cycle extracts its skills, or absent
     */
    @Schema(description = "An agent's registration.")
    public record AgentBody(
            @Schema(description = AGENT, nullable = true) String agentId,

            @Schema(
                    description = "What the agent covers, 1 to 4,000 code points, compared with queries by the"
                            + " cross-domain router; absent = the agent takes no part in routing.",
                    nullable = true)
            String domainDescription,

            @Schema(
                    description = "Whether the dream cycle extracts skills from the agent's successful episodes;"
                            + " absent = the deployment's default (memory.skills.auto-extract, false).",
                    nullable = true)
            Boolean skillAutoExtract) {}

    /**
     * Body of {@code POST /agents/relevant}.
     *
     * @param agentId     the asking agent
     * @param query       the query
     * @param maxWarnings the asking agent's warning count
     */
    @Schema(description = "A query to route.")
    public record RoutingQuery(
            @Schema(description = "The asking agent; required unless the token is narrowed to one.", nullable = true)
            String agentId,

            @Schema(description = "The query; blank routes nowhere.")
            String query,

            @Schema(
                    description = "The asking agent's warning count, 1 to 1,000; default 3 (spec"
                            + " episodic_max_warnings).",
                    nullable = true)
            Integer maxWarnings) {}

    @EJB
    AgentRegistry agents;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @PUT
    @Audited("agent.register")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = "bearer", scopes = Roles.ADMIN)
    @Operation(
            summary = "Register an agent, or change its registration",
            description = "The domain description is embedded now (with the episodes' model) and kept; a changed"
                    + " description is embedded again. A description the model cannot embed is kept with"
                    + " embedded=false, and the router skips the agent.")
    @APIResponse(
            responseCode = "200",
            description = "The registration",
            content = @Content(schema = @Schema(implementation = AgentRegistration.class)))
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing or breaks the id rules, or domainDescription is blank, longer than"
                    + " 4,000 code points or holds a NUL",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response register(AgentBody body) throws MemoryException {
        bodies.check(body);
        return Response.ok(agents.registerAgent(
                        tenants.current(), admin(body.agentId()), body.domainDescription(), body.skillAutoExtract()))
                .build();
    }

    @GET
    @Operation(summary = "List the tenant's agents", description = "By agent id, keyset-paged.")
    @APIResponse(
            responseCode = "200",
            description = "One page of registrations; pass nextCursor back as cursor for the next",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties = {
                                                @SchemaProperty(
                                                        name = "items",
                                                        type = SchemaType.ARRAY,
                                                        implementation = AgentRegistration.class,
                                                        description = "The registrations, by agent id."),
                                                @SchemaProperty(
                                                        name = "nextCursor",
                                                        type = SchemaType.STRING,
                                                        nullable = true,
                                                        description =
                                                                "Cursor of the next page, or null on the last page.")
                                            })))
    @APIResponse(
            responseCode = "400",
            description = "limit is not 1 to 1000, or cursor is not ours",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user or an agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response list(
            @Parameter(description = "Page size, 1 to 1000 (default 100)") @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor)
            throws MemoryException {
        tenants.unscoped("Listing the tenant's agents");
        return Response.ok(agents.listAgents(
                        tenants.current(),
                        Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE),
                        cursor))
                .build();
    }

    @DELETE
    @Audited("agent.remove")
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = "bearer", scopes = Roles.ADMIN)
    @Operation(
            summary = "Remove an agent's registration",
            description = "The router no longer routes to it; its skills, episodes and brain stay.")
    @APIResponse(responseCode = "204", description = "Removed")
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing or breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user, or to another agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "404",
            description = "The agent is not registered in the tenant",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response remove(@Parameter(description = AGENT) @QueryParam("agentId") String agentId)
            throws MemoryException {
        agents.removeAgent(tenants.current(), admin(agentId));
        return Response.noContent().build();
    }

    @POST
    @Path("relevant")
    @Operation(
            summary = "The other agents a query is routed to",
            description = "Other agents of the tenant whose domain description has cosine ≥"
                    + " memory.router.similarity-threshold (0.5) with the query, at most"
                    + " memory.router.max-relevant-agents (2), by relevance = cosine × memory.router.cross-domain-decay"
                    + " (0.6); each contributes ⌈relevance × maxWarnings⌉ failure warnings, at most"
                    + " memory.router.warnings-per-agent (2), to the asking agent's context.")
    @APIResponse(
            responseCode = "200",
            description = "{\"agents\": [...]}, highest relevance first",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "agents",
                                                            type = SchemaType.ARRAY,
                                                            implementation = RelevantAgent.class,
                                                            description = "The relevant agents, highest relevance"
                                                                    + " first."))))
    @APIResponse(
            responseCode = "400",
            description = "agentId is missing or breaks the id rules, maxWarnings is not 1 to 1000, or the query holds"
                    + " a NUL",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token is narrowed to a user or an agent (the route names the tenant's other agents)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response relevant(RoutingQuery body) throws MemoryException {
        tenants.unscoped("Routing a query across the tenant's agents");
        bodies.check(body);
        int max = body.maxWarnings() == null ? 3 : body.maxWarnings();
        return Response.ok(Map.of(
                        "agents",
                        agents.relevantAgents(
                                tenants.current(), tenants.agentId("agentId", body.agentId()), body.query(), max)))
                .build();
    }

    /** @return the agent a change names, narrowed by the token; a token narrowed to a user is refused */
    private String admin(String agentId) {
        if (tenants.caller().user() != null) {
            throw new OutOfScopeException(
                    null,
                    "Agent registrations are the tenant's configuration; a token narrowed to a user cannot"
                            + " change them.");
        }
        return tenants.agentId("agentId", agentId);
    }
}
