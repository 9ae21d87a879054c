package org.agentmemory.episodic;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.episodic.EpisodicMemory;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
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
 * {@code POST /episodes/compact}: deletes all but a namespace's most important episodes (spec §10.3). A class of
 * its own under the literal path, beside {@link EpisodesResource}; fault tolerance as there.
 */
@Path("episodes/compact")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Episodes", description = "Episodic memory: record, recall, warn")
@Timeout(30_000)
@Bulkhead(32)
@RolesAllowed(Roles.WRITER)
@SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
public class EpisodeCompactionResource {

    @EJB
    EpisodicMemory memory;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @POST
    @Operation(
            summary = "Compact a namespace",
            description = "Spec §10.3 compact_namespace: keeps the keepTopN most important"
                    + " (and every failure unless keepAllFailures is false) and deletes the rest.")
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
                                                            description =
                                                                    "Episodes deleted; 0 when the namespace holds at most keepTopN."))))
    @APIResponse(responseCode = "400", description = "keepTopN is negative, or a namespace id breaks a rule")
    public Response compact(EpisodicRequests.Compact body) throws MemoryException {
        bodies.check(body);
        return Response.ok(Map.of(
                        "deleted",
                        memory.compactNamespace(
                                body.namespace().toNamespace(tenants, "namespace."),
                                body.keepTopN() == null ? 100 : body.keepTopN(),
                                body.keepAllFailures() == null || body.keepAllFailures())))
                .build();
    }
}
