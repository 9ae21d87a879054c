package org.agentmemory.pii;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.pii.AnonymizedText;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.Forgotten;
import org.agentmemory.api.pii.MessageRole;
import org.agentmemory.api.pii.PiiMemory;
import org.agentmemory.api.pii.Provenance;
import org.agentmemory.api.pii.Reencrypted;
import org.agentmemory.api.pii.RestoredText;
import org.agentmemory.api.pii.ThreadDetections;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.Problem;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.security.Audited;
import org.agentmemory.security.Caller;
import org.agentmemory.security.OutOfScopeException;
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
 * PII threads over REST (issue 34 items 1–3, seed 002). A thread belongs to a user of the caller's tenant: the request
 * names it with {@code userId}, or the token is narrowed to it (a token narrowed to another user gets 403). Ids travel
 * in bodies and query parameters, never in paths. Forgetting a thread and re-encryption are audited with the ids the
 * request names (never a text, a value or a thread's content).
 *
 * <p>Fault tolerance: 10,000 ms timeout, 32 concurrent calls (re-encryption: 600,000 ms, 1), 503 + {@code Retry-After}
 * beyond either.
 */
@Path("pii")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "PII", description = "Detections per thread, consistent placeholders and their restoration")
@Timeout(10_000)
@Bulkhead(32)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class PiiResource {

    private static final String ID_RULES = "1 to 128 code points, not blank, no control characters";

    /**
     * Body of {@code POST /pii/messages}.
     *
     * @param threadId   the thread
     * @param userId     the user the thread belongs to
     * @param messageId  the message
     * @param role       who wrote it
     * @param detections its detections
     */
    @Schema(description = "The detections of one message, remembered in a thread.")
    public record RememberMessage(
            @Schema(description = "The thread; required, " + ID_RULES + ".") @NotNull(message = "threadId is required")
            String threadId,

            @Schema(description = "The user the thread belongs to; the token's user when absent; required otherwise.")
            String userId,

            @Schema(description = "The message; required, " + ID_RULES + ". Remembering it again replaces it.")
            @NotNull(message = "messageId is required")
            String messageId,

            @Schema(description = "Who wrote it: user (default), assistant, system or tool.")
            String role,

            @Schema(description = "Its detections, at most 1,000; [] when it holds none. Placeholders are assigned.")
            @NotNull(message = "detections is required (an empty list when none)")
            List<Detection> detections) {}

    /**
     * Body of {@code POST /pii/anonymize}.
     *
     * @param threadId   the thread
     * @param userId     the user
     * @param messageId  the message, or {@code null}
     * @param role       who wrote it
     * @param text       the text
     * @param detections the detections, or {@code null} for the built-in detector
     */
    @Schema(description = "A text to anonymize in a thread.")
    public record AnonymizeText(
            @Schema(description = "The thread; required, " + ID_RULES + ".") @NotNull(message = "threadId is required")
            String threadId,

            @Schema(description = "The user the thread belongs to; the token's user when absent; required otherwise.")
            String userId,

            @Schema(description = "The message the detections are remembered under; derived from the text when absent.")
            String messageId,

            @Schema(description = "Who wrote the text: user (default), assistant, system or tool.")
            String role,

            @Schema(description = "The text; required, at most 262,144 code points, no NUL.")
            @NotNull(message = "text is required")
            String text,

            @Schema(
                    description = "Detections in the text (offsets in code points, values equal to the text between"
                            + " them); absent: the built-in detector finds e-mails, phones, IBANs and card numbers.")
            List<Detection> detections) {}

    /**
     * Body of {@code POST /pii/deanonymize}.
     *
     * @param threadId the thread
     * @param userId   the user
     * @param text     the text
     */
    @Schema(description = "A text whose placeholders are restored from one thread.")
    public record DeanonymizeText(
            @Schema(description = "The thread; required, " + ID_RULES + ".") @NotNull(message = "threadId is required")
            String threadId,

            @Schema(description = "The user the thread belongs to; the token's user when absent; required otherwise.")
            String userId,

            @Schema(description = "The text, e.g. a model's reply; required, at most 262,144 code points, no NUL.")
            @NotNull(message = "text is required")
            String text) {}

    @EJB
    PiiMemory pii;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    private String user(String given) throws InvalidInputException {
        Caller caller = tenants.caller();
        if (caller.agent() != null && caller.user() == null) {
            // PII threads belong to a user, not to an agent: an agent's token would reach every user's values.
            throw new OutOfScopeException(
                    null, "PII threads belong to users; a token narrowed to an agent must also be narrowed to a user.");
        }
        String user = tenants.userId("userId", given);
        if (user == null) {
            throw new InvalidInputException(
                    "userId", "not-null", "userId is required: the user the thread belongs to (" + ID_RULES + ").");
        }
        return user;
    }

    @POST
    @Path("messages")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Remember a message's detections",
            description = "Replaces any prior entry of the message (its first-seen position is kept) and gives each"
                    + " detection the thread's placeholder of its value.")
    @APIResponse(
            responseCode = "200",
            description = "What is remembered for the message",
            content = @Content(schema = @Schema(implementation = ThreadDetections.class)))
    @APIResponse(
            responseCode = "400",
            description = "An id is missing or breaks the id rules, role is unknown, or a detection breaks a rule",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response remember(RememberMessage body) throws MemoryException {
        bodies.check(body);
        String user = user(body.userId());
        MessageRole role = MessageRole.parse("role", body.role());
        return Response.ok(pii.remember(
                        tenants.current(), user, body.threadId(), body.messageId(), body.detections(), role))
                .build();
    }

    @GET
    @Path("detections")
    @Operation(
            summary = "Read a thread's detections",
            description = "Of one message, or without messageId of the whole thread merged in first-seen order (one"
                    + " per value, case and spaces ignored). Empty for an unknown or expired thread.")
    @APIResponse(
            responseCode = "200",
            description = "The detections",
            content = @Content(schema = @Schema(implementation = ThreadDetections.class)))
    @APIResponse(
            responseCode = "400",
            description = "threadId is missing, or an id breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response detections(
            @QueryParam("threadId") String threadId,
            @QueryParam("messageId") String messageId,
            @QueryParam("userId") String userId)
            throws MemoryException {
        return Response.ok(pii.detections(
                        tenants.current(), user(userId), Params.required("threadId", threadId), messageId))
                .build();
    }

    @GET
    @Path("provenance")
    @Operation(
            summary = "Read a thread's provenance",
            description = "Per value key (lower case, whitespace removed), the role of the message it was first seen"
                    + " in.")
    @APIResponse(
            responseCode = "200",
            description = "The provenance",
            content = @Content(schema = @Schema(implementation = Provenance.class)))
    @APIResponse(
            responseCode = "400",
            description = "threadId is missing, or an id breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response provenance(@QueryParam("threadId") String threadId, @QueryParam("userId") String userId)
            throws MemoryException {
        return Response.ok(pii.provenance(tenants.current(), user(userId), Params.required("threadId", threadId)))
                .build();
    }

    @POST
    @Path("anonymize")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Anonymize a text",
            description = "Replaces each detected value by the thread's placeholder of that value (<<LABEL_n>>, stable"
                    + " for the whole thread) and remembers the detections. Without detections the built-in detector"
                    + " finds e-mail addresses, phone numbers, IBANs (mod-97) and payment cards (Luhn).")
    @APIResponse(
            responseCode = "200",
            description = "The anonymized text and what was replaced",
            content = @Content(schema = @Schema(implementation = AnonymizedText.class)))
    @APIResponse(
            responseCode = "400",
            description = "The text is missing or too long, an id or the role breaks a rule, or a detection does not"
                    + " match the text",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response anonymize(AnonymizeText body) throws MemoryException {
        bodies.check(body);
        String user = user(body.userId());
        MessageRole role = MessageRole.parse("role", body.role());
        AnonymizedText anonymized = pii.anonymize(
                tenants.current(), user, body.threadId(), body.messageId(), body.text(), body.detections(), role);
        return Response.ok(anonymized).build();
    }

    @POST
    @Path("deanonymize")
    @Operation(
            summary = "Restore placeholders",
            description = "Replaces the thread's placeholders in a text (e.g. a model's reply) by their values. Only"
                    + " this thread's placeholders are restored; others stay as they are.")
    @APIResponse(
            responseCode = "200",
            description = "The restored text",
            content = @Content(schema = @Schema(implementation = RestoredText.class)))
    @APIResponse(
            responseCode = "400",
            description = "The text is missing or too long, or an id breaks a rule",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response deanonymize(DeanonymizeText body) throws MemoryException {
        bodies.check(body);
        return Response.ok(pii.deanonymize(tenants.current(), user(body.userId()), body.threadId(), body.text()))
                .build();
    }

    @DELETE
    @Path("threads")
    @Audited("pii.thread.forget")
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(
            summary = "Forget a thread",
            description = "Erases the thread's detections; answers what was dropped (zeros when nothing was left).")
    @APIResponse(
            responseCode = "200",
            description = "The messages and detections dropped",
            content = @Content(schema = @Schema(implementation = Forgotten.class)))
    @APIResponse(
            responseCode = "400",
            description = "threadId is missing, or an id breaks the id rules",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response forget(@QueryParam("threadId") String threadId, @QueryParam("userId") String userId)
            throws MemoryException {
        return Response.ok(pii.forget(tenants.current(), user(userId), Params.required("threadId", threadId)))
                .build();
    }

    @POST
    @Path("reencrypt")
    @Audited("pii.reencrypt")
    @Timeout(600_000)
    @Bulkhead(1)
    @RolesAllowed(Roles.ADMIN)
    @SecurityRequirement(name = "bearer", scopes = Roles.ADMIN)
    @Operation(
            summary = "Re-encrypt under the current key",
            description = "After a key rotation (memory.pii.key new, memory.pii.old-key the previous one), rewrites the"
                    + " tenant's durable PII rows under the current key, 500 per transaction; rows stored in clear"
                    + " before keys were set are hashed and encrypted. Answers 0 when every row is current.")
    @APIResponse(
            responseCode = "200",
            description = "How many rows were rewritten",
            content = @Content(schema = @Schema(implementation = Reencrypted.class)))
    @APIResponse(
            responseCode = "403",
            description = "Not memory-admin, or the token is narrowed to a user or agent",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response reencrypt() throws MemoryException {
        tenants.unscoped("Re-encrypting the PII store");
        return Response.ok(pii.reencrypt(tenants.current())).build();
    }
}
