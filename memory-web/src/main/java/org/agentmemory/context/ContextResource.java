package org.agentmemory.context;

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
import org.agentmemory.api.context.AssembledContext;
import org.agentmemory.api.context.ContextAssemblyRequest;
import org.agentmemory.api.context.ContextMemory;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.rest.Problem;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The read path by conversation key (spec §5.4, §8, §9): the compacted history of a round, and the assembled
 * long-term context. The same by conversation id: {@link ConversationContextResource}.
 *
 * <p>Fault tolerance (override with MicroProfile Config, e.g.
 * {@code org.agentmemory.context.ContextResource/Timeout/value=5000}): 10,000 ms timeout, 64 concurrent calls,
 * 503 + {@code Retry-After} beyond either. Errors are {@code application/problem+json}: 400 naming the field.
 * No budget is an error: a budget too small answers 200 with zero messages and a note.
 */
@Path("context")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Context", description = "Histories compacted into a model's token budget; context assembly")
@Timeout(10_000)
@Bulkhead(64)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class ContextResource {

    /**
     * Example body of {@code POST /context}: the history of a round for gpt-4o, with the system prompt's size and
     * the new user prompt's text.
     */
    static final String CONTEXT_EXAMPLE = """
            {
              "userId": "user-42",
              "sessionId": "session-2026-05-01",
              "chatbotId": "travel-agent",
              "context": {
                "model": "gpt-4o",
                "reserveOutput": 4096,
                "systemPromptTokens": 850,
                "userPrompt": "And the day after?"
              }
            }""";

    @EJB
    ContextMemory memory;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    /**
     * @param body the conversation key and the budget parameters
     * @return 200 with the {@link ConversationContext}
     * @throws MemoryException 400 when a field breaks a rule
     */
    @POST
    @Operation(
            summary = "Compact a conversation's history for a round, by key",
            description = "The history of (userId, sessionId, chatbotId) compacted into the model's budget (spec §5.4,"
                    + " §8): strictly alternating messages within the history budget, per-turn tiers, dropped turn ids,"
                    + " the boundary, stage2Needed, and the commit to send back as \"compaction\" with the round's"
                    + " POST /turns. Every omission id in the messages is stored before the answer. A key without a"
                    + " conversation gives an empty history. Sizes are tokens of the memory's tokenizer.")
    @APIResponse(
            responseCode = "200",
            description = "The rendered history (zero messages with a note when nothing fits)",
            content = @Content(schema = @Schema(implementation = ConversationContext.class)))
    @APIResponse(
            responseCode = "400",
            description = "A field breaks a rule (negative size, both a prompt size and its text …)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "503",
            description = "Timed out or too many concurrent calls; see Retry-After",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ContextRequests.ContextByKey.class),
                            examples =
                                    @ExampleObject(
                                            name = "gpt4o",
                                            summary = "The history of a round for gpt-4o",
                                            value = CONTEXT_EXAMPLE)))
    public Response context(ContextRequests.ContextByKey body) throws MemoryException {
        bodies.check(body);
        ConversationContext context =
                memory.context(key(body.chatbotId(), body.userId(), body.sessionId()), body.context());
        return Response.ok(context).build();
    }

    /**
     * @param body the conversation key, the query, the configuration and the compaction parameters
     * @return 200 with the {@link AssembledContext}
     * @throws MemoryException 400 when a field breaks a rule (the weights' sum names the weights)
     */
    @POST
    @Path("assemble")
    @Operation(
            summary = "Assemble the long-term context of a query, by key",
            description =
                    "Episodic warnings, skills and brain knowledge from the plugged-in providers (empty when none),"
                            + " and the conversation compacted as above flattened to 'User: …' / 'Assistant: …' lines, fitted into"
                            + " maxContextTokens (estimate len/4) by the spec §9.2 weights; with the XML-tagged prompt string.")
    @APIResponse(
            responseCode = "200",
            description = "The sections, their estimate and the prompt",
            content = @Content(schema = @Schema(implementation = AssembledContext.class)))
    @APIResponse(
            responseCode = "400",
            description = "A field breaks a rule",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(
            responseCode = "503",
            description = "Timed out or too many concurrent calls; see Retry-After",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response assemble(ContextRequests.AssembleByKey body) throws MemoryException {
        bodies.check(body);
        AssembledContext assembled = memory.assemble(
                key(body.chatbotId(), body.userId(), body.sessionId()),
                new ContextAssemblyRequest(body.query(), body.config(), body.context()));
        return Response.ok(assembled).build();
    }

    private ConversationKey key(String chatbotId, String userId, String sessionId) throws InvalidInputException {
        return tenants.key("", chatbotId, userId, sessionId);
    }
}
