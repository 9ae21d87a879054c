package org.agentmemory.conversation;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.rest.Problem;
import org.agentmemory.security.Audited;
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
 * {@code DELETE /admin/idle-conversations?idleBefore=<ISO instant>} (issue 34 item 5): runs the idle-conversation
 * deletion that {@code memory.conversation.idle-ttl-seconds} enforces every 10 minutes, now, for the caller's tenant,
 * with the cut-off given: conversations last written before {@code idleBefore} are deleted, in batches of 100.
 * Answers {@code {"deleted": n}}. Needs {@code memory-admin} and a token not narrowed to a user or agent.
 *
 * <p>Fault tolerance: 600,000 ms, 2 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("admin/idle-conversations")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Administration", description = "Search index maintenance")
@Timeout(600_000)
@Bulkhead(2)
@RolesAllowed(Roles.ADMIN)
@SecurityRequirement(name = "bearer", scopes = Roles.ADMIN)
public class IdleConversationsResource {

    @EJB
    ConversationMemory memory;

    @Inject
    Tenants tenants;

    /**
     * @param idleBefore an ISO-8601 instant; required
     * @return 200 with {@code {"deleted": n}}
     * @throws MemoryException 400 when {@code idleBefore} is missing or not an instant
     */
    @Audited("conversations.idle.delete")
    @DELETE
    @Operation(
            summary = "Delete idle conversations now",
            description = "Deletes the tenant's conversations last written (a turn, a metadata change, a clearing)"
                    + " before idleBefore, with everything stored under them, in transactions of 100. The timer of"
                    + " memory.conversation.idle-ttl-seconds does the same every 10 minutes with now minus the time"
                    + " to live, for every tenant. A conversation written while this runs is kept.")
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
                                                            description = "Idle conversations deleted."))))
    @APIResponse(
            responseCode = "400",
            description = "idleBefore is missing or not an ISO-8601 instant; nothing is deleted",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "Not memory-admin, or a token narrowed to a user or agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response deleteIdle(
            @Parameter(
                            description = "Conversations last written before this ISO-8601 instant are deleted,"
                                    + " e.g. 2026-12-01T00:00:00Z (required)")
                    @QueryParam("idleBefore")
                    String idleBefore)
            throws MemoryException {
        tenants.unscoped("Deleting idle conversations");
        return Response.ok(Map.of("deleted", memory.deleteIdleConversations(tenants.current(), instant(idleBefore))))
                .build();
    }

    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    private static Instant instant(String value) throws InvalidInputException {
        if (value == null || value.isBlank()) {
            throw new InvalidInputException(
                    "idleBefore",
                    "required",
                    "idleBefore is required: an ISO-8601 instant such as 2026-12-01T00:00:00Z.");
        }
        try {
            Instant instant = Instant.parse(value);
            if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
                throw new InvalidInputException(
                        "idleBefore",
                        "range",
                        "idleBefore is '" + value + "'; it must lie between years 1 and 9999 (the database's range).");
            }
            return instant;
        } catch (DateTimeException e) {
            throw new InvalidInputException(
                    "idleBefore",
                    "instant",
                    "idleBefore is '" + value + "'; it must be an ISO-8601 instant such as 2026-12-01T00:00:00Z.");
        }
    }
}
