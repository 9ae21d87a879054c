package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.compaction.TurnState;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One turn of a conversation (spec §1.1): a user message, the assistant's response, the tools it invoked.
 *
 * <p>As input to {@code addTurn}, the service ignores {@code sequence}, {@code tokenCount}, {@code state},
 * {@code schemaVersion} and {@code normVersion}: it assigns and computes them. As output, every field is
 * the stored value.
 *
 * @param turnId            id unique within the conversation (at most 128 code points); {@code null} on
 *                          input makes the service generate a UUID; adding a turn id twice stores one turn
 * @param sequence          1-based position in the conversation, assigned at write time; alone defines order
 * @param userId            the user who spoke; {@code null} on input means the conversation's user
 * @param userMessage       the user's message, at most 262,144 code points; {@code null} on input is stored as
 *                          {@code ""}
 * @param assistantResponse the assistant's reply, at most 262,144 code points; {@code null} on input is stored
 *                          as {@code ""}
 * @param contextUsed       retrieval context given to the model (at most 262,144 code points), or
 *                          {@code null}; never counted in tokens
 * @param toolsUsed         names of the tools used; never {@code null}
 * @param timestamp         when the turn happened, UTC, microsecond precision, years 0001–9999; {@code null}
 *                          on input = now
 * @param metadata          free JSON object (e.g. {@code usage}, {@code model}), at most 1,048,576 code points
 *                          of keys and values; never {@code null}
 * @param chatbotId         the agent that produced the turn; {@code null} on input means the conversation's
 *                          agent
 * @param toolInvocations   the invocations in call order; never {@code null}
 * @param error             round-level failure text (tracebacks condensed), or {@code null}; never omitted
 * @param tokenCount        per-part token counts (spec §3); computed by the service
 * @param state             always {@link TurnState#RAW} in storage
 * @param schemaVersion     2 for turns written by this service
 * @param normVersion       the normalization version applied ({@code "1"}), or {@code null} when disabled
 */
@Schema(
        description = "One turn of a conversation: the user's message, the assistant's response and the tools it"
                + " invoked. As input, sequence, tokenCount, state, schemaVersion and normVersion are ignored (the service"
                + " assigns them); a turn holds at most 2,097,152 code points of texts, tool outputs, inputs and metadata"
                + " together.")
public record TurnRecord(
        @Schema(
                description = "Id unique within the conversation: 1 to 128 code points, not blank, no control"
                        + " characters. Absent or null on input: the service generates a UUID. A turnId already stored in"
                        + " the conversation writes nothing (retries are idempotent).")
        String turnId,

        @Schema(
                description = "1-based position in the conversation, assigned at write time; it alone defines the"
                        + " order. Ignored on input.")
        Long sequence,

        @Schema(
                description = "The user who spoke (1 to 128 code points, no control characters). Absent or null on"
                        + " input: the conversation's user.")
        String userId,

        @Schema(
                description = "The user's message, at most 262,144 code points. Absent or null on input is stored"
                        + " as \"\".")
        String userMessage,

        @Schema(
                description = "The assistant's reply, at most 262,144 code points. Absent or null on input is"
                        + " stored as \"\".")
        String assistantResponse,

        @Schema(
                description = "Retrieval context given to the model, at most 262,144 code points, or null. Never"
                        + " counted in tokens.")
        String contextUsed,

        @Schema(
                description = "Names of the tools used: at most 1,000 items of at most 255 code points, no null"
                        + " items. Absent or null on input = empty; never null in responses.")
        List<String> toolsUsed,

        @Schema(
                description = "When the turn happened: ISO-8601 UTC, microsecond precision, between"
                        + " 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z. Absent or null on input: the time of"
                        + " writing.")
        Instant timestamp,

        @Schema(
                description =
                        "Free JSON object (e.g. usage, model), at most 1,048,576 code points of keys and"
                                + " values. usage.input_tokens (or usage.prompt_tokens) calibrates the token estimates when the"
                                + " turn is sent with a compaction commit. Absent or null on input = {}; never null in responses.")
        Map<String, Object> metadata,

        @Schema(
                description = "The agent that produced the turn (1 to 128 code points, no control characters)."
                        + " Absent or null on input: the conversation's agent.")
        String chatbotId,

        @Schema(
                description = "The tool invocations in call order, at most 1,000, no null items. Absent or null on"
                        + " input = empty; never null in responses.")
        List<ToolInvocationRecord> toolInvocations,

        @Schema(
                description =
                        "Round-level failure text (tracebacks condensed), at most 262,144 code points, or" + " null.")
        String error,

        @Schema(description = "Token counts per part, computed by the service on write. Ignored on input.")
        TokenCount tokenCount,

        @Schema(description = "The turn's state; stored turns are always raw. Ignored on input.")
        TurnState state,

        @Schema(
                description = "Version of the stored turn format: 2 for turns written by this service. Ignored on"
                        + " input.")
        Integer schemaVersion,

        @Schema(
                description = "The text normalization version applied (\"1\"), or null when normalization is off"
                        + " (memory.normalization.enabled=false). Ignored on input.")
        String normVersion)
        implements Serializable {

    public TurnRecord {
        // Null items are kept (not a NullPointerException here) so that the input rules can name them.
        toolsUsed = toolsUsed == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(toolsUsed));
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        toolInvocations =
                toolInvocations == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(toolInvocations));
    }

    /**
     * The smallest useful input: a turn id, a user message and a response.
     *
     * @param turnId            the turn id, or {@code null} to let the service generate one
     * @param userMessage       the user's message
     * @param assistantResponse the reply
     * @return the turn
     */
    public static TurnRecord of(String turnId, String userMessage, String assistantResponse) {
        return new TurnRecord(
                turnId,
                null,
                null,
                userMessage,
                assistantResponse,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** @return a copy with the tool invocations replaced */
    public TurnRecord withToolInvocations(List<ToolInvocationRecord> invocations) {
        return new TurnRecord(
                turnId,
                sequence,
                userId,
                userMessage,
                assistantResponse,
                contextUsed,
                toolsUsed,
                timestamp,
                metadata,
                chatbotId,
                invocations,
                error,
                tokenCount,
                state,
                schemaVersion,
                normVersion);
    }

    /** @return a copy with the metadata replaced */
    public TurnRecord withMetadata(Map<String, Object> newMetadata) {
        return new TurnRecord(
                turnId,
                sequence,
                userId,
                userMessage,
                assistantResponse,
                contextUsed,
                toolsUsed,
                timestamp,
                newMetadata,
                chatbotId,
                toolInvocations,
                error,
                tokenCount,
                state,
                schemaVersion,
                normVersion);
    }

    /** @return a copy with the tool names used replaced */
    public TurnRecord withToolsUsed(List<String> names) {
        return new TurnRecord(
                turnId,
                sequence,
                userId,
                userMessage,
                assistantResponse,
                contextUsed,
                names,
                timestamp,
                metadata,
                chatbotId,
                toolInvocations,
                error,
                tokenCount,
                state,
                schemaVersion,
                normVersion);
    }

    /** @return a copy with the timestamp replaced */
    public TurnRecord withTimestamp(Instant newTimestamp) {
        return new TurnRecord(
                turnId,
                sequence,
                userId,
                userMessage,
                assistantResponse,
                contextUsed,
                toolsUsed,
                newTimestamp,
                metadata,
                chatbotId,
                toolInvocations,
                error,
                tokenCount,
                state,
                schemaVersion,
                normVersion);
    }

    /** @return a copy with the producing agent replaced */
    public TurnRecord withChatbotId(String newChatbotId) {
        return new TurnRecord(
                turnId,
                sequence,
                userId,
                userMessage,
                assistantResponse,
                contextUsed,
                toolsUsed,
                timestamp,
                metadata,
                newChatbotId,
                toolInvocations,
                error,
                tokenCount,
                state,
                schemaVersion,
                normVersion);
    }

    /** @return a copy with the round-level error replaced */
    public TurnRecord withError(String newError) {
        return new TurnRecord(
                turnId,
                sequence,
                userId,
                userMessage,
                assistantResponse,
                contextUsed,
                toolsUsed,
                timestamp,
                metadata,
                chatbotId,
                toolInvocations,
                newError,
                tokenCount,
                state,
                schemaVersion,
                normVersion);
    }

    /** @return a copy with the token counts replaced */
    public TurnRecord withTokenCount(TokenCount count) {
        return new TurnRecord(
                turnId,
                sequence,
                userId,
                userMessage,
                assistantResponse,
                contextUsed,
                toolsUsed,
                timestamp,
                metadata,
                chatbotId,
                toolInvocations,
                error,
                count,
                state,
                schemaVersion,
                normVersion);
    }

    /** @return a copy with the text fields replaced (used by normalization) */
    public TurnRecord withText(
            String newUserMessage, String newAssistantResponse, String newContextUsed, String newError) {
        return new TurnRecord(
                turnId,
                sequence,
                userId,
                newUserMessage,
                newAssistantResponse,
                newContextUsed,
                toolsUsed,
                timestamp,
                metadata,
                chatbotId,
                toolInvocations,
                newError,
                tokenCount,
                state,
                schemaVersion,
                normVersion);
    }

    /** @return a copy stamped with a normalization version */
    public TurnRecord withNormVersion(String version) {
        return new TurnRecord(
                turnId,
                sequence,
                userId,
                userMessage,
                assistantResponse,
                contextUsed,
                toolsUsed,
                timestamp,
                metadata,
                chatbotId,
                toolInvocations,
                error,
                tokenCount,
                state,
                schemaVersion,
                version);
    }

    /** @return a copy with the identity fields the service assigns at write time */
    public TurnRecord withIdentity(
            String newTurnId,
            Long newSequence,
            String newUserId,
            Instant newTimestamp,
            String newChatbotId,
            TurnState newState,
            Integer newSchemaVersion) {
        return new TurnRecord(
                newTurnId,
                newSequence,
                newUserId,
                userMessage,
                assistantResponse,
                contextUsed,
                toolsUsed,
                newTimestamp,
                metadata,
                newChatbotId,
                toolInvocations,
                error,
                tokenCount,
                newState,
                newSchemaVersion,
                normVersion);
    }
}
