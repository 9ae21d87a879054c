package org.agentmemory.erasure;

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
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.audit.AuditTrail;
import org.agentmemory.api.erasure.ErasureReceipt;
import org.agentmemory.api.erasure.SubjectErasure;
import org.agentmemory.rest.Problem;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.security.Caller;
import org.agentmemory.security.OutOfScopeException;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Right to erasure over REST (issue 34 item 4): {@code POST /erasures} erases a subject (a user of the caller's
 * tenant) from every store and answers the receipt. Allowed to {@code memory-admin}, or to a writer token narrowed to
 * that very user (the subject's own token); a token narrowed to an agent is refused, as erasure spans every agent.
 * The audit event holds the receipt id and counts; its caller is written as {@code (erased)} when it is the subject.
 *
 * <p>Fault tolerance: an erasure runs on the request's thread, 600,000 ms and 2 concurrent calls; beyond either 503
 * + {@code Retry-After}.
 */
@Path("erasures")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Erasure", description = "Erasing a subject from every store, with a receipt")
public class ErasureResource {

    /**
     * Body of {@code POST /erasures}.
     *
     * @param userId the subject
     */
    @Schema(description = "Whom to erase.")
    public record EraseSubject(
            @Schema(description = "The subject: a user id of the caller's tenant; required.")
            String userId) {}

    @EJB
    SubjectErasure erasure;

    @EJB
    AuditTrail audit;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @POST
    @Timeout(600_000)
    @Bulkhead(2)
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            extensions = @Extension(name = "x-token-scope", value = "user"),
            summary = "Erase a subject everywhere",
            description = "Deletes the user's conversations of every chatbot (turns, tool invocations, omissions,"
                    + " Stage 2 summaries, searchable messages with their vectors and index documents), episodes,"
                    + " answers stored under the turn ids of those conversations, PII threads (other servers' in-process"
                    + " threads too), the user's evidence in brain pages (a statement supported only by it is removed, a"
                    + " page left empty deleted), the skills extracted from the user's episodes and the user's id in"
                    + " audit events. Other users' data is untouched. Idempotent: a second call answers zeros. Needs"
                    + " memory-admin, or a writer token narrowed to this user.")
    @APIResponse(
            responseCode = "200",
            description = "The receipt: a count per store",
            content = @Content(schema = @Schema(implementation = ErasureReceipt.class)))
    @APIResponse(
            responseCode = "400",
            description = "userId is missing, blank or breaks the id rules; nothing is deleted",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "403",
            description = "Neither memory-admin nor a token narrowed to this user, or a token narrowed to an agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response erase(EraseSubject body) throws MemoryException {
        bodies.check(body);
        String userId = body.userId();
        if (userId == null || userId.isBlank()) {
            throw new InvalidInputException("userId", "not-blank", "userId is required: the subject to erase.");
        }
        Caller caller = tenants.caller();
        tenants.userId("userId", userId);
        if (caller.agent() != null) {
            throw new OutOfScopeException(
                    null, "Erasure spans every agent; it needs a token that is not narrowed to an agent.");
        }
        if (caller.user() == null && !caller.hasRole(Roles.ADMIN)) {
            throw new OutOfScopeException(
                    null, "Erasing a subject needs the role " + Roles.ADMIN + ", or a token narrowed to that user.");
        }
        ErasureReceipt receipt = erasure.eraseSubject(tenants.current(), userId);
        // A self-erasure's principal names the subject too (its sub may be an e-mail address): not recorded.
        String who = userId.equals(caller.subject()) || userId.equals(caller.user()) ? "(erased)" : caller.subject();
        audit.record(
                caller.tenant(),
                who,
                "subject.erase",
                "receipt=" + receipt.receiptId() + " total=" + receipt.total(),
                Response.Status.OK.getStatusCode());
        return Response.ok(receipt).build();
    }
}
