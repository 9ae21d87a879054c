package org.agentmemory.recall;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.recall.ConversationRecall;
import org.agentmemory.api.recall.MessageHit;
import org.agentmemory.api.recall.MessageRecallRequest;
import org.agentmemory.rest.QueryShortening;
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
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Conversation recall: search stored messages (each user message and assistant response on its own) of a
 * user's conversations or of one conversation, by words, by meaning, or both.
 *
 * <p>Fault tolerance: 10,000 ms, 64 concurrent calls, 503 + {@code Retry-After} beyond either.
 */
@Path("messages")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Conversation recall", description = "Search stored conversation messages")
@Timeout(10_000)
@Bulkhead(64)
@RolesAllowed(Roles.READER)
@SecurityRequirement(name = "bearer", scopes = Roles.READER)
public class MessagesResource {

    /**
     * Body of {@code POST /messages/search}.
     *
     * @param userId         the user whose conversations are searched (or give conversationId)
     * @param chatbotId      only this agent's conversations, or absent for all
     * @param conversationId only this conversation, or absent
     * @param query          the query (required)
     * @param mode           {@code full_text}, {@code vector} or {@code hybrid} (default)
     * @param topK           1 to 100, default 10
     */
    @Schema(
            description = "Body of POST /messages/search. The scope is a user's conversations (userId, optionally"
                    + " one agent's) or one conversation (conversationId); it applies inside every retrieval leg.")
    public record Search(
            @Schema(
                    description = "The user whose conversations are searched (1 to 128 code points, not blank, no"
                            + " control characters); required unless conversationId is given.")
            String userId,

            @Schema(
                    description = "Only this agent's conversations (1 to 128 code points, not blank, no control"
                            + " characters); absent or null for every agent's.")
            String chatbotId,

            @Schema(description = "Only this conversation; absent or null for all of the user's.")
            Long conversationId,

            @Schema(description = "The query text; required, not blank.") @NotNull(message = "query is required")
            String query,

            @Schema(description = "vector, full_text or hybrid; absent or null = hybrid.")
            RecallMode mode,

            @Schema(description = "Most hits returned, 1 to 100; absent or null = 10.")
            Integer topK) {}

    /** Example body of {@code POST /messages/search}: a user's messages with one agent, by words and meaning. */
    static final String USER_EXAMPLE = """
            {
              "userId": "user-42",
              "chatbotId": "travel-agent",
              "query": "weather in Lisbon",
              "mode": "hybrid",
              "topK": 5
            }""";

    /** Example body of {@code POST /messages/search}: one conversation, by words only. */
    static final String CONVERSATION_EXAMPLE = """
            {
              "conversationId": 17,
              "query": "hotel booking reference",
              "mode": "full_text"
            }""";

    @EJB
    ConversationRecall recall;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @POST
    @Path("search")
    @Operation(
            summary = "Search conversation messages",
            description = "Hits carry the turn id, role (user or assistant),"
                    + " the message's external id (turn metadata dia_id / reply_dia_id), the text and the score.")
    @APIResponse(
            responseCode = "200",
            description = "{\"hits\": [...]}, best first",
            content =
                    @Content(
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            properties =
                                                    @SchemaProperty(
                                                            name = "hits",
                                                            type = SchemaType.ARRAY,
                                                            implementation = MessageHit.class,
                                                            description = "At most topK messages, best first."))))
    @APIResponse(
            responseCode = "400",
            description = "query is missing or blank, neither userId nor conversationId is"
                    + " given, topK is not 1 to 100, or an id breaks a rule")
    @RequestBody(
            required = true,
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = Search.class),
                            examples = {
                                @ExampleObject(
                                        name = "user",
                                        summary = "A user's messages with one agent, hybrid",
                                        value = USER_EXAMPLE),
                                @ExampleObject(
                                        name = "conversation",
                                        summary = "One conversation, full text only",
                                        value = CONVERSATION_EXAMPLE)
                            }))
    public Response search(Search body) throws MemoryException {
        bodies.check(body);
        List<MessageHit> hits = recall.searchMessages(new MessageRecallRequest(
                tenants.current(),
                tenants.userId("userId", body.userId()),
                tenants.agentId("chatbotId", body.chatbotId()),
                body.conversationId(),
                body.query(),
                body.mode(),
                body.topK()));
        return QueryShortening.mark(Response.ok(Map.of("hits", hits)), body.query())
                .build();
    }
}
