package org.agentmemory.conversation;

import java.util.List;
import java.util.Map;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.conversation.AssistantMessage;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;

/**
 * Request bodies of the conversation resources. Bean Validation checks presence; the service checks every
 * other rule (lengths in code points, characters) and names the field either way.
 */
public final class ConversationRequests {

    private ConversationRequests() {
    }

    /**
     * Body of {@code POST /conversations}.
     *
     * @param userId    the user (required)
     * @param sessionId the session (required)
     * @param chatbotId the agent, or absent for the default agent
     * @param metadata  initial metadata object, or absent
     */
    public record CreateConversation(
            @NotNull(message = "userId is required") String userId,
            @NotNull(message = "sessionId is required") String sessionId,
            String chatbotId,
            Map<String, Object> metadata) {
    }

    /**
     * Body of {@code POST /turns}: a turn and the conversation it belongs to (created when missing).
     *
     * @param userId    the user (required)
     * @param sessionId the session (required)
     * @param chatbotId the agent, or absent for the default agent
     * @param turn       the turn (required)
     * @param compaction the commit of the round that produced the turn, as the context call returned it
     *                   (spec §5.4 step 8), or absent to leave the compaction state untouched
     */
    public record AddTurn(
            @NotNull(message = "userId is required") String userId,
            @NotNull(message = "sessionId is required") String sessionId,
            String chatbotId,
            @NotNull(message = "turn is required") TurnRecord turn,
            CompactionCommit compaction) {
    }

    /**
     * Body of {@code POST /turns/from-ai-message} (spec §1.1 {@code from_ai_message}).
     *
     * @param userId          the user (required)
     * @param sessionId       the session (required)
     * @param chatbotId       the agent, or absent for the default agent
     * @param userMessage     what the user said (required)
     * @param response        the model's reply (required)
     * @param contextUsed     retrieval context, or absent
     * @param turnId          explicit turn id, or absent
     * @param assistantText   explicit assistant text, or absent
     * @param error           round-level error, or absent
     * @param toolInvocations explicit invocations replacing the derived ones, or absent
     * @param compaction      the round's compaction commit, or absent
     */
    public record FromAiMessage(
            @NotNull(message = "userId is required") String userId,
            @NotNull(message = "sessionId is required") String sessionId,
            String chatbotId,
            @NotNull(message = "userMessage is required") String userMessage,
            @NotNull(message = "response is required") AssistantMessage response,
            String contextUsed,
            String turnId,
            String assistantText,
            String error,
            List<@NotNull(message = "toolInvocations must not contain null") ToolInvocationRecord> toolInvocations,
            CompactionCommit compaction) {
    }

    /**
     * Body of {@code POST /turns/usage} (spec §4 {@code report_usage}).
     *
     * @param userId               the user (required)
     * @param sessionId            the session (required)
     * @param chatbotId            the agent, or absent for the default agent
     * @param promptEstimate       the service's estimate of the prompt, tokens
     * @param providerPromptTokens what the provider billed for it, tokens
     */
    public record Usage(
            @NotNull(message = "userId is required") String userId,
            @NotNull(message = "sessionId is required") String sessionId,
            String chatbotId,
            @PositiveOrZero(message = "promptEstimate must be 0 or more (tokens)") long promptEstimate,
            @PositiveOrZero(message = "providerPromptTokens must be 0 or more (tokens)") long providerPromptTokens) {
    }

    /**
     * Body of {@code POST /turns/batch}: turns appended in order, in one transaction.
     *
     * @param userId    the user (required)
     * @param sessionId the session (required)
     * @param chatbotId the agent, or absent for the default agent
     * @param turns     1 to 1000 turns
     */
    public record AddTurns(
            @NotNull(message = "userId is required") String userId,
            @NotNull(message = "sessionId is required") String sessionId,
            String chatbotId,
            @NotEmpty(message = "turns must contain at least one turn") List<@NotNull(message = "turns must not contain null") TurnRecord> turns) {
    }

    /**
     * Body of {@code POST /conversations/{id}/turns/batch}.
     *
     * @param turns 1 to 1000 turns
     */
    public record TurnBatch(
            @NotEmpty(message = "turns must contain at least one turn") List<@NotNull(message = "turns must not contain null") TurnRecord> turns) {
    }

    /**
     * Answer of {@code DELETE /conversations/{id}/turns}.
     *
     * @param conversationId the conversation
     * @param removedTurns   how many turns were removed
     */
    public record Cleared(long conversationId, long removedTurns) {
    }
}
