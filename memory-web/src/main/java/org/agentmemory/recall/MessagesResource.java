package org.agentmemory.recall;

import java.util.List;
import java.util.Map;

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

import org.agentmemory.api.MemoryException;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.recall.ConversationRecall;
import org.agentmemory.api.recall.MessageHit;
import org.agentmemory.api.recall.MessageRecallRequest;
import org.agentmemory.rest.RequestBodies;
import org.agentmemory.rest.ServiceUnavailableFallback;
import org.agentmemory.rest.Tenants;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
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
    public record Search(String userId, String chatbotId, Long conversationId,
            @NotNull(message = "query is required") String query, RecallMode mode, Integer topK) {
    }

    @EJB
    ConversationRecall recall;

    @Inject
    Tenants tenants;

    @Inject
    RequestBodies bodies;

    @POST
    @Path("search")
    @Fallback(value = ServiceUnavailableFallback.class, applyOn = {TimeoutException.class, BulkheadException.class})
    @Operation(summary = "Search conversation messages", description = "Hits carry the turn id, role (user or assistant),"
            + " the message's external id (turn metadata dia_id / reply_dia_id), the text and the score.")
    @APIResponse(responseCode = "200", description = "{\"hits\": [...]}, best first")
    public Response search(Search body) throws MemoryException {
        bodies.check(body);
        List<MessageHit> hits = recall.searchMessages(new MessageRecallRequest(tenants.current(), body.userId(),
                body.chatbotId(), body.conversationId(), body.query(), body.mode(), body.topK()));
        return Response.ok(Map.of("hits", hits)).build();
    }
}
