package org.agentmemory.cluster;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.agentmemory.api.cluster.Housekeeping;
import org.agentmemory.api.cluster.HousekeepingStatus;
import org.agentmemory.rest.Problem;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The housekeeping of the servers sharing the database (issue 36 item 2), read-only: which server ran each
 * once-per-cluster task last and how often they all ran it, and what the answering server did itself. Every tenant's
 * data is swept alike, so it needs {@code memory-operator}. Fault tolerance: 10,000 ms, 4 concurrent calls, 503 +
 * {@code Retry-After} beyond.
 */
@Path("admin/housekeeping")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Administration", description = "Search index maintenance")
@Timeout(10_000)
@Bulkhead(4)
@RolesAllowed(Roles.OPERATOR)
@SecurityRequirement(name = "bearer", scopes = Roles.OPERATOR)
public class HousekeepingResource {

    @EJB
    Housekeeping housekeeping;

    @Inject
    Tenants tenants;

    /** @return the status as the answering server sees it */
    @GET
    @Operation(
            summary = "Housekeeping across servers",
            description = "The answering server's id (node name and a random suffix per start); per once-per-cluster"
                    + " task (omission-purge, episode-expiry, idle-conversations, audit-retention, db-statistics,"
                    + " and on an OpenSearch cluster search-merge and search-quiet-merge) the lease row every server"
                    + " shares: runs of all servers, the last holder, its start and end, and the last result; and the"
                    + " answering server's own counters since it started: its housekeeping runs per task and the"
                    + " conversation messages its background embedder embedded. Ask each server to add their"
                    + " counters up. Periods: memory.housekeeping.<task>-seconds.")
    @APIResponse(
            responseCode = "200",
            description = "The status",
            content = @Content(schema = @Schema(implementation = HousekeepingStatus.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token lacks memory-operator, or is narrowed to a user or agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response status() {
        tenants.unscoped("Reading the housekeeping status");
        return Response.ok(housekeeping.status()).build();
    }
}
