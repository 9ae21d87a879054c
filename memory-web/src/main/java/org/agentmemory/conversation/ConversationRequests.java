package org.agentmemory.conversation;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.conversation.AssistantMessage;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.rest.KeyDescriptions;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Request bodies of the conversation resources. Bean Validation checks presence; the service checks every
 * other rule (lengths in code points, characters) and names the field either way.
 */
public final class ConversationRequests {

    private ConversationRequests() {}

    /**
     * Body of {@code POST /conversations}.
     *
     * @param userId    the user (required)
     * @param sessionId the session (required)
     * @param chatbotId the agent, or absent for the default agent
     * @param metadata  initial metadata object, or absent
     */
    @Schema(description = "Body of POST /conversations.")
    public record CreateConversation(
            @Schema(description = KeyDescriptions.USER_ID) String userId,

            @Schema(description = KeyDescriptions.SESSION_ID) @NotNull(message = "sessionId is required")
            String sessionId,

            @Schema(description = KeyDescriptions.CHATBOT_ID)
            String chatbotId,

            @Schema(
                    description = "Initial metadata, a JSON object of at most 1,048,576 code points of keys and"
                            + " values; absent or null = {}. Ignored when the conversation already exists.")
            Map<String, Object> metadata) {}

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
    @Schema(description = "Body of POST /turns: a turn and the key of its conversation, created when missing.")
    public record AddTurn(
            @Schema(description = KeyDescriptions.USER_ID) String userId,

            @Schema(description = KeyDescriptions.SESSION_ID) @NotNull(message = "sessionId is required")
            String sessionId,

            @Schema(description = KeyDescriptions.CHATBOT_ID)
            String chatbotId,

            @Schema(description = "The turn; required.") @NotNull(message = "turn is required")
            TurnRecord turn,

            @Schema(
                    description = "The commit the context call of this round returned, unchanged; absent or null"
                            + " leaves the compaction state untouched. Ignored when the turnId already exists.")
            CompactionCommit compaction) {}

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
    @Schema(description = "Body of POST /turns/from-ai-message: a round as the agent framework reports it.")
    public record FromAiMessage(
            @Schema(description = KeyDescriptions.USER_ID) String userId,

            @Schema(description = KeyDescriptions.SESSION_ID) @NotNull(message = "sessionId is required")
            String sessionId,

            @Schema(description = KeyDescriptions.CHATBOT_ID)
            String chatbotId,

            @Schema(description = "What the user said; required, at most 262,144 code points.")
            @NotNull(message = "userMessage is required")
            String userMessage,

            @Schema(description = "The model's final message of the round; required.")
            @NotNull(message = "response is required")
            AssistantMessage response,

            @Schema(description = "Retrieval context of the round (at most 262,144 code points), or absent.")
            String contextUsed,

            @Schema(
                    description = "The turn id (1 to 128 code points, not blank, no control characters); absent, null"
                            + " or \"\" = response.turnId, else a generated UUID.")
            String turnId,

            @Schema(
                    description = "Text stored as the assistant response instead of response.text (even \"\"), e.g."
                            + " a partial answer saved while streaming; absent or null = response.text.")
            String assistantText,

            @Schema(description = "Round-level failure text (at most 262,144 code points), or absent.")
            String error,

            @Schema(
                    description = "Invocations that replace those derived from response.toolCalls, even when empty;"
                            + " no null items. Absent or null = derived from the tool calls.")
            List<@NotNull(message = "toolInvocations must not contain null") ToolInvocationRecord> toolInvocations,

            @Schema(
                    description = "The round's compaction commit, as for POST /turns; absent or null leaves the"
                            + " compaction state untouched.")
            CompactionCommit compaction) {}

    /**
     * Body of {@code POST /turns/usage} (spec §4 {@code report_usage}).
     *
     * @param userId               the user (required)
     * @param sessionId            the session (required)
     * @param chatbotId            the agent, or absent for the default agent
     * @param promptEstimate       the service's estimate of the prompt, tokens
     * @param providerPromptTokens what the provider billed for it, tokens
     */
    @Schema(description = "Body of POST /turns/usage: one (estimate, provider tokens) sample for the calibration.")
    public record Usage(
            @Schema(description = KeyDescriptions.USER_ID) String userId,

            @Schema(description = KeyDescriptions.SESSION_ID) @NotNull(message = "sessionId is required")
            String sessionId,

            @Schema(description = KeyDescriptions.CHATBOT_ID)
            String chatbotId,

            @Schema(
                    required = true,
                    description = "The service's estimate of the prompt"
                            + " (ConversationContext.commit.promptEstimate), tokens, 0 or more.")
            @PositiveOrZero(message = "promptEstimate must be 0 or more (tokens)")
            long promptEstimate,

            @Schema(required = true, description = "The prompt tokens the provider billed for it, 0 or more.")
            @PositiveOrZero(message = "providerPromptTokens must be 0 or more (tokens)")
            long providerPromptTokens) {}

    /**
     * Body of {@code POST /turns/batch}: turns appended in order, in one transaction.
     *
     * @param userId    the user (required)
     * @param sessionId the session (required)
     * @param chatbotId the agent, or absent for the default agent
     * @param turns     1 to 1000 turns
     */
    @Schema(description = "Body of POST /turns/batch: turns appended in order, in one transaction.")
    public record AddTurns(
            @Schema(description = KeyDescriptions.USER_ID) String userId,

            @Schema(description = KeyDescriptions.SESSION_ID) @NotNull(message = "sessionId is required")
            String sessionId,

            @Schema(description = KeyDescriptions.CHATBOT_ID)
            String chatbotId,

            @Schema(description = "1 to 1000 turns, no null items, stored in this order.")
            @NotEmpty(message = "turns must contain at least one turn")
            List<@NotNull(message = "turns must not contain null") TurnRecord> turns) {}

    /**
     * Body of {@code POST /conversations/{id}/turns/batch}.
     *
     * @param turns 1 to 1000 turns
     */
    @Schema(description = "Body of POST /conversations/{id}/turns/batch.")
    public record TurnBatch(
            @Schema(description = "1 to 1000 turns, no null items, stored in this order.")
            @NotEmpty(message = "turns must contain at least one turn")
            List<@NotNull(message = "turns must not contain null") TurnRecord> turns) {}

    /**
     * Answer of {@code DELETE /conversations/{id}/turns}.
     *
     * @param conversationId the conversation
     * @param removedTurns   how many turns were removed
     */
    @Schema(description = "Answer of DELETE /conversations/{id}/turns.")
    public record Cleared(
            @Schema(description = "The conversation.") long conversationId,

            @Schema(description = "How many turns were removed.")
            long removedTurns) {}
}
