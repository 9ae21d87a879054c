package org.agentmemory.conversation;

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
import java.net.URI;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.compaction.CompactionState;
import org.agentmemory.api.conversation.AiMessageTurn;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.security.Roles;
import org.agentmemory.security.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Adding turns by conversation key: the conversation is created on first use (spec §6 {@code add_turn}).
 * Safe under any number of concurrent clients appending to the same (possibly new) conversation.
 *
 * <p>Fault tolerance: 10,000 ms timeout, 64 concurrent calls, 503 + {@code Retry-After} beyond either
 * (override with MicroProfile Config, e.g. {@code org.agentmemory.conversation.TurnsResource/Timeout/value}).
 */
@Path("turns")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Turns", description = "Append turns by conversation key")
@Timeout(10_000)
@Bulkhead(64)
@RolesAllowed(Roles.WRITER)
@SecurityRequirement(name = "bearer", scopes = Roles.WRITER)
public class TurnsResource {

    /** Example body of {@code POST /turns}: the least a turn needs. */
    static final String MINIMAL_EXAMPLE = """
            {
              "userId": "user-42",
              "sessionId": "session-2026-05-01",
              "turn": {
                "userMessage": "Hello! Can you help me plan a trip?",
                "assistantResponse": "Of course. Where would you like to go?"
              }
            }""";

    /**
     * Example body of {@code POST /turns}: a round with a tool call, sent with the commit the round's context call
     * returned (gpt-4o: 128,000 − 8,192 − 4,096 = 115,712 tokens available).
     */
    static final String TOOL_CALL_EXAMPLE = """
            {
              "userId": "user-42",
              "sessionId": "session-2026-05-01",
              "chatbotId": "travel-agent",
              "turn": {
                "turnId": "turn-0007",
                "userMessage": "What's the weather in Lisbon tomorrow?",
                "assistantResponse": "Tomorrow in Lisbon: sunny, 24 °C, light wind from the north.",
                "toolsUsed": ["get_weather"],
                "toolInvocations": [
                  {
                    "toolName": "get_weather",
                    "input": {"city": "Lisbon", "date": "2026-05-02"},
                    "output": "{\\"forecast\\":\\"sunny\\",\\"high_c\\":24,\\"wind\\":\\"N 12 km/h\\"}",
                    "status": "completed",
                    "elapsedMs": 412
                  }
                ],
                "metadata": {"model": "gpt-4o", "usage": {"input_tokens": 1834, "output_tokens": 41}}
              },
              "compaction": {
                "promptEstimate": 1790,
                "boundaryTurnId": null,
                "stage2Needed": false,
                "historyEstimate": 1210,
                "droppedTurns": 0,
                "available": 115712
              }
            }""";

    @EJB
    ConversationMemory memory;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @POST
    @Operation(
            summary = "Add a turn",
            description = "Creates the conversation when missing; normalizes, counts tokens"
                    + " (o200k_base) and assigns the next sequence in one transaction; idempotent on turn.turnId. With"
                    + " \"compaction\" (the commit a context call returned for this round), folds it into metadata.compaction"
                    + " in the same transaction (spec §4, §5.4): calibration from turn.metadata.usage.input_tokens (or"
                    + " prompt_tokens), boundary, sticky stage2_needed. A repeated turnId folds nothing.")
    @APIResponse(
            responseCode = "201",
            description = "Stored; Location names the turn (GET /conversations/{id}/turns/{sequence})",
            content = @Content(schema = @Schema(implementation = AppendedTurn.class)))
    @APIResponse(
            responseCode = "200",
            description = "This turnId already existed; nothing written",
            content = @Content(schema = @Schema(implementation = AppendedTurn.class)))
    @APIResponse(responseCode = "400", description = "A field breaks a rule (the problem names it)")
    @RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = ConversationRequests.AddTurn.class),
                            examples = {
                                @ExampleObject(
                                        name = "toolCall",
                                        summary = "A round with a tool call and its compaction commit",
                                        value = TOOL_CALL_EXAMPLE),
                                @ExampleObject(
                                        name = "minimal",
                                        summary = "The least a turn needs",
                                        value = MINIMAL_EXAMPLE)
                            }))
    public Response add(ConversationRequests.AddTurn body) throws MemoryException {
        bodies.check(body);
        return answer(
                memory.addTurn(key(body.chatbotId(), body.userId(), body.sessionId()), body.turn(), body.compaction()));
    }

    @POST
    @Path("from-ai-message")
    @Operation(
            summary = "Add a turn built from a model's reply",
            description = "Spec §1.1 from_ai_message: text,"
                    + " tool calls (derived invocations, or the explicit ones that replace them), usage, model, provider,"
                    + " finish reason and response time become the turn; stored like POST /turns.")
    @APIResponse(
            responseCode = "201",
            description = "Stored; Location names the turn (GET /conversations/{id}/turns/{sequence})",
            content = @Content(schema = @Schema(implementation = AppendedTurn.class)))
    @APIResponse(
            responseCode = "200",
            description = "This turnId already existed; nothing written",
            content = @Content(schema = @Schema(implementation = AppendedTurn.class)))
    @APIResponse(responseCode = "400", description = "A field breaks a rule (the problem names it)")
    public Response fromAiMessage(ConversationRequests.FromAiMessage body) throws MemoryException {
        bodies.check(body);
        AppendedTurn appended = memory.addTurnFromAiMessage(
                key(body.chatbotId(), body.userId(), body.sessionId()),
                new AiMessageTurn(
                        body.userMessage(),
                        body.response(),
                        body.contextUsed(),
                        body.turnId(),
                        body.assistantText(),
                        body.error(),
                        body.toolInvocations(),
                        body.compaction()));
        return answer(appended);
    }

    @POST
    @Path("usage")
    @Operation(
            summary = "Report a provider usage sample",
            description =
                    "Spec §4 report_usage: folds (estimate,"
                            + " provider prompt tokens) into the calibration state without adding a turn, e.g. after a failed round.")
    @APIResponse(
            responseCode = "200",
            description = "The calibration state after the sample",
            content = @Content(schema = @Schema(implementation = CompactionState.class)))
    @APIResponse(
            responseCode = "400",
            description = "userId or sessionId is missing or breaks a rule, or a token" + " count is negative")
    @APIResponse(responseCode = "404", description = "No such conversation (nothing is created)")
    public Response usage(ConversationRequests.Usage body) throws MemoryException {
        bodies.check(body);
        ConversationKey key = key(body.chatbotId(), body.userId(), body.sessionId());
        CompactionState state = memory.reportUsage(key, body.promptEstimate(), body.providerPromptTokens());
        if (state == null) {
            throw new NotFoundException(
                    "conversation",
                    null,
                    "No conversation for userId '" + key.userId() + "', sessionId '" + key.sessionId()
                            + "'; usage is only recorded for existing histories.");
        }
        return Response.ok(state).build();
    }

    @POST
    @Path("batch")
    @Operation(summary = "Add turns in order", description = "1 to 1000 turns, one transaction, all or nothing.")
    @APIResponse(
            responseCode = "200",
            description = "One result per turn, in order",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = AppendedTurn.class)))
    @APIResponse(
            responseCode = "400",
            description = "turns is empty or has more than 1000 items, or a field breaks a"
                    + " rule (field names it, e.g. turns[3].userMessage); nothing is written")
    public Response addBatch(ConversationRequests.AddTurns body) throws MemoryException {
        bodies.check(body);
        List<AppendedTurn> appended =
                memory.addTurns(key(body.chatbotId(), body.userId(), body.sessionId()), body.turns());
        return Response.ok(appended).build();
    }

    /**
     * The answer to adding one turn: 201 with a {@code Location} naming the stored turn
     * ({@code conversations/{id}/turns/{sequence}}, relative to the application's base URI) when it was written,
     * 200 without one when its turn id was already stored.
     *
     * @param appended what the memory answered
     * @return the response, with {@code appended} as its entity
     */
    static Response answer(AppendedTurn appended) {
        if (!appended.created()) {
            return Response.ok(appended).build();
        }
        return Response.created(URI.create("conversations/" + appended.conversationId() + "/turns/"
                        + appended.turn().sequence()))
                .entity(appended)
                .build();
    }

    private ConversationKey key(String chatbotId, String userId, String sessionId) throws InvalidInputException {
        return tenants.key("", chatbotId, userId, sessionId);
    }
}
