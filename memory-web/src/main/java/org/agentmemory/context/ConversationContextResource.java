package org.agentmemory.context;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.context.AssembledContext;
import org.agentmemory.api.context.ContextAssemblyRequest;
import org.agentmemory.api.context.ContextMemory;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.rest.Problem;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.security.ConversationIdScoped;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The read path by conversation id: {@code POST /conversations/{id}/context} and
 * {@code POST /conversations/{id}/context/assemble}, the same as {@link ContextResource} does by key.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 64 concurrent calls, 503 + {@code Retry-After} beyond either
 * (override with {@code org.agentmemory.context.ConversationContextResource/Timeout/value} …). Errors are
 * problem details: 400 naming the field, 404 for an unknown conversation.
 */
@ConversationIdScoped
@Path("conversations/{id}/context")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Context", description = "Histories compacted into a model's token budget; context assembly")
@Timeout(10_000)
@Bulkhead(64)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class ConversationContextResource {

    /**
     * Example body of {@code POST /conversations/{id}/context}: at most 20 turns for Claude, with the system
     * prompt's text and the user prompt's size.
     */
    static final String CONTEXT_EXAMPLE = """
            {
              "model": "claude-sonnet-4",
              "maxTurns": 20,
              "systemPrompt": "You are a travel assistant. Answer briefly.",
              "userPromptTokens": 12
            }""";

    @EJB
    ContextMemory memory;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    /**
     * @param id      the conversation
     * @param request the budget parameters, or no body for every default
     * @return 200 with the {@link ConversationContext}
     * @throws MemoryException 400 when a field breaks a rule, 404 for an unknown conversation
     */
    @POST
    @Operation(
            summary = "Compact a conversation's history for a round",
            description = "As POST /context, for a conversation id. The body is a ContextRequest (all fields optional):"
                    + " model or window, reserveOutput, reserveFixed, maxTurns, maxHistoryTokens, systemPromptTokens or"
                    + " systemPrompt, userPromptTokens or userPrompt, currentChatbotId, includeOtherAgents.")
    @APIResponse(
            responseCode = "200",
            description = "The rendered history (zero messages with a note when nothing fits)",
            content = @Content(schema = @Schema(implementation = ConversationContext.class)))
    @APIResponse(
            responseCode = "400",
            description = "A field breaks a rule",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "404",
            description = "No such conversation",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "503",
            description = "Timed out or too many concurrent calls; see Retry-After",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @RequestBody(
            description = "The budget parameters; no body for every default (a 32,000-token window).",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ContextRequest.class),
                            examples =
                                    @ExampleObject(
                                            name = "claude",
                                            summary = "At most 20 turns for Claude",
                                            value = CONTEXT_EXAMPLE)))
    public Response context(
            @Parameter(description = "The conversation id") @PathParam("id") long id, ContextRequest request)
            throws MemoryException {
        return Response.ok(memory.contextById(tenants.current(), id, request)).build();
    }

    /**
     * @param id      the conversation
     * @param request the query, configuration and compaction parameters
     * @return 200 with the {@link AssembledContext}
     * @throws MemoryException 400 when a field breaks a rule, 404 for an unknown conversation
     */
    @POST
    @Path("assemble")
    @Operation(
            summary = "Assemble the long-term context of a query",
            description = "As POST /context/assemble, for a conversation id. Body: {query, config, context}.")
    @APIResponse(
            responseCode = "200",
            description = "The sections, their estimate and the prompt",
            content = @Content(schema = @Schema(implementation = AssembledContext.class)))
    @APIResponse(
            responseCode = "400",
            description = "A field breaks a rule",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "404",
            description = "No such conversation",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response assemble(
            @Parameter(description = "The conversation id") @PathParam("id") long id, ContextAssemblyRequest request)
            throws MemoryException {
        bodies.check(request);
        return Response.ok(memory.assembleById(tenants.current(), id, request)).build();
    }
}
