package org.agentmemory.answer;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.answer.AnswerMemory;
import org.agentmemory.api.answer.StoredAnswer;
import org.agentmemory.rest.Params;
import org.agentmemory.rest.RequestBodies;
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
 * Answer memory: an agent's question/answer pairs by turn id. Ids travel in the body and in query
 * parameters (never in the path), so any id round-trips.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 32 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("answers")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Answers", description = "Question/answer pairs by turn id")
@Timeout(10_000)
@Bulkhead(32)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class AnswersResource {

    /**
     * Body of {@code PUT /answers}.
     *
     * @param agentId  the agent (required)
     * @param turnId   the turn (required)
     * @param question the question
     * @param answer   any JSON value
     */
    @Schema(description = "Body of PUT /answers.")
    public record StoreAnswer(
            @Schema(description = "The agent; required, 1 to 128 code points, not blank, no control characters.")
            @NotNull(message = "agentId is required")
            String agentId,

            @Schema(description = "The turn; required, 1 to 128 code points, not blank, no control characters.")
            @NotNull(message = "turnId is required")
            String turnId,

            @Schema(description = "The question (no NUL characters); absent or null is stored as \"\".")
            String question,

            @Schema(description = "The answer: any JSON value (text, number, boolean, object, list or null).")
            Object answer) {}

    @EJB
    AnswerMemory answers;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @PUT
    @RolesAllowed(Roles.WRITER)
    @SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
    @Operation(summary = "Store an interaction", description = "Stores or replaces the question and answer of a turn.")
    @APIResponse(
            responseCode = "200",
            description = "What is stored now",
            content = @Content(schema = @Schema(implementation = StoredAnswer.class)))
    @APIResponse(
            responseCode = "400",
            description = "agentId or turnId is missing or breaks the id rules, or" + " question holds a NUL character")
    public Response store(StoreAnswer body) throws MemoryException {
        bodies.check(body);
        tenants.unscoped("Answers belong to an agent, not to a user; storing one");
        return Response.ok(answers.storeInteraction(
                        tenants.current(), body.agentId(), body.turnId(), body.question(), body.answer()))
                .build();
    }

    @GET
    @Operation(summary = "Fetch an interaction", description = "By agent and turn id.")
    @APIResponse(
            responseCode = "200",
            description = "The interaction",
            content = @Content(schema = @Schema(implementation = StoredAnswer.class)))
    @APIResponse(responseCode = "400", description = "agentId or turnId is missing or breaks the id rules")
    @APIResponse(responseCode = "404", description = "Nothing stored for that agent and turn")
    public Response get(@QueryParam("agentId") String agentId, @QueryParam("turnId") String turnId)
            throws MemoryException {
        tenants.unscoped("Answers belong to an agent, not to a user; reading one");
        return Response.ok(answers.get(
                        tenants.current(), Params.required("agentId", agentId), Params.required("turnId", turnId)))
                .build();
    }
}
