package org.agentmemory.audit;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.audit.AuditEvent;
import org.agentmemory.api.audit.AuditTrail;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.Problem;
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
 * The audit trail over REST (issue 32 item 5): a tenant's admin reads its tenant's events, an operator every
 * tenant's, newest first, in pages. Failed authentications carry no trusted tenant, so only an operator sees them.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 4 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("admin/audit")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Administration", description = "Search index maintenance")
@Timeout(10_000)
@Bulkhead(4)
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = "bearer", scopes = Roles.ADMIN)
public class AuditResource {

    @EJB
    AuditTrail audit;

    @Inject
    Tenants tenants;

    /**
     * @param limit  page size, 1 to 1,000 (default 100)
     * @param cursor {@code nextCursor} of the previous page, or absent
     * @return a page of events, newest first
     * @throws MemoryException when the limit or cursor breaks a rule
     */
    @GET
    @Operation(
            summary = "Read the audit trail",
            description = "Security-relevant operations (administration, imports, exports, deletions, refused"
                    + " attempts at them) with time, tenant, caller, operation, target ids and the status answered;"
                    + " never message content. Failed authentications are one row per minute with their count."
                    + " A memory-admin reads its tenant's events; a memory-operator every tenant's, failed"
                    + " authentications included. Newest first; rows older than memory.audit.retention-days are"
                    + " deleted daily.")
    @APIResponse(
            responseCode = "200",
            description = "A page of events, newest first",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties = {
                                                @SchemaProperty(
                                                        name = "items",
                                                        type = SchemaType.ARRAY,
                                                        implementation = AuditEvent.class,
                                                        description = "The events of this page, newest first."),
                                                @SchemaProperty(
                                                        name = "nextCursor",
                                                        type = SchemaType.STRING,
                                                        nullable = true,
                                                        description =
                                                                "Cursor of the next page, or null on the last page.")
                                            })))
    @APIResponse(
            responseCode = "400",
            description = "limit is not 1 to 1000, or cursor is not one of ours",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "The token lacks memory-admin, or is narrowed to a user or agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response list(
            @Parameter(description = "Page size, 1 to 1000 (default 100)") @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor)
            throws MemoryException {
        tenants.unscoped("Reading the audit trail");
        String tenant = tenants.caller().hasRole(Roles.OPERATOR) ? null : tenants.current();
        return Response.ok(audit.list(
                        tenant,
                        Params.intParam("limit", limit, 100, 1, ConversationMemoryOperations.MAX_PAGE_SIZE),
                        cursor))
                .build();
    }
}
