package org.agentmemory.conversation.control;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import org.agentmemory.api.conversation.AssistantMessage;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolCall;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.json.CanonicalJson;

/**
 * Builds a turn from the message an agent produced in one round (spec §1.1 {@code from_ai_message},
 * including FEAT-538's explicit tool invocations).
 */
public final class AiMessageTurns {

    private AiMessageTurns() {}

    /**
     * Builds the turn of one round (spec §1.1):
     * <ul>
     * <li>assistant response: {@code assistantText} when not {@code null} (even empty), else
     * {@code response.text()}, else {@code ""};</li>
     * <li>turn id: {@code turnId}, else {@code response.turnId()}, else a random UUID (version 4); an empty
     * id counts as absent, as in the Python system;</li>
     * <li>{@code toolsUsed}: the names of {@code response.toolCalls()}, in order;</li>
     * <li>metadata: {@code model}, {@code provider}, {@code usage} (the provider's usage map),
     * {@code finish_reason}, {@code response_time} (seconds), in that order, {@code null} values kept;</li>
     * <li>tool invocations: {@code explicitInvocations} when not {@code null} (they REPLACE the derived ones,
     * even when empty, FEAT-538), else one per tool call, see {@link #toInvocation(ToolCall)}.</li>
     * </ul>
     * Timestamp, sequence, token count, state, schema and normalization versions are left {@code null}: the
     * write path assigns them.
     *
     * @param userMessage         the user's text of the round; {@code null} is kept (stored as {@code ""})
     * @param response            the agent's final message; never {@code null}
     * @param userId              the user; may be {@code null} (the conversation's user)
     * @param chatbotId           the agent producing the turn; may be {@code null} (the conversation's agent)
     * @param contextUsed         retrieval context of the round, or {@code null}
     * @param turnId              an explicit turn id, or {@code null}
     * @param assistantText       text overriding {@code response.text()} (streaming partial saves), or
     *                            {@code null}
     * @param error               round-level failure text, or {@code null}
     * @param explicitInvocations invocations replacing those derived from the tool calls, or {@code null}
     * @return the turn
     * @throws NullPointerException     when {@code response} is {@code null}
     * @throws IllegalArgumentException when a tool result map or list cannot be written as JSON
     */
    public static TurnRecord fromAiMessage(
            String userMessage,
            AssistantMessage response,
            String userId,
            String chatbotId,
            String contextUsed,
            String turnId,
            String assistantText,
            String error,
            List<ToolInvocationRecord> explicitInvocations) {
        return fromAiMessage(
                userMessage,
                response,
                userId,
                chatbotId,
                contextUsed,
                turnId,
                assistantText,
                error,
                explicitInvocations,
                () -> UUID.randomUUID().toString());
    }

    /** As the public variant, with the source of generated turn ids as a parameter (tests). */
    static TurnRecord fromAiMessage(
            String userMessage,
            AssistantMessage response,
            String userId,
            String chatbotId,
            String contextUsed,
            String turnId,
            String assistantText,
            String error,
            List<ToolInvocationRecord> explicitInvocations,
            Supplier<String> newTurnId) {
        Objects.requireNonNull(response, "response");
        String answer = assistantText != null ? assistantText : response.text() != null ? response.text() : "";
        String id = !isNullOrEmpty(turnId)
                ? turnId
                : !isNullOrEmpty(response.turnId()) ? response.turnId() : newTurnId.get();

        List<String> toolsUsed = new ArrayList<>(response.toolCalls().size());
        List<ToolInvocationRecord> derived =
                new ArrayList<>(response.toolCalls().size());
        for (ToolCall call : response.toolCalls()) {
            toolsUsed.add(call.name());
            derived.add(toInvocation(call));
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("model", response.model());
        metadata.put("provider", response.provider());
        metadata.put("usage", response.usage());
        metadata.put("finish_reason", response.finishReason());
        metadata.put("response_time", response.responseTime());

        List<ToolInvocationRecord> invocations = explicitInvocations != null ? explicitInvocations : derived;
        return new TurnRecord(
                id,
                null,
                userId,
                userMessage,
                answer,
                contextUsed,
                toolsUsed,
                null,
                metadata,
                chatbotId,
                invocations,
                error,
                null,
                null,
                null,
                null);
    }

    /**
     * The invocation derived from one tool call (spec §1.1):
     * <ul>
     * <li>tool name and input = the call's name and arguments;</li>
     * <li>output = {@link #resultText(Object)} of the result;</li>
     * <li>status = {@link InvocationStatus#ERROR} when the call's error is non-empty, else
     * {@link InvocationStatus#COMPLETED}; error = the call's error text as given;</li>
     * <li>elapsed = executionTime (seconds) × 1000, truncated toward zero to whole milliseconds;
     * {@code null} when the time is {@code null} or not finite;</li>
     * <li>working-memory key = {@code result["_tee"]["key"]} when the result is a map whose {@code "_tee"} is
     * a map holding a non-null {@code "key"} (a non-string key is written with {@code String.valueOf}), else
     * {@code null}.</li>
     * </ul>
     *
     * @param call the tool call; never {@code null}
     * @return the invocation
     * @throws IllegalArgumentException when the result is a map or list that cannot be written as JSON
     */
    public static ToolInvocationRecord toInvocation(ToolCall call) {
        boolean failed = call.error() != null && !call.error().isEmpty();
        Long elapsedMs = call.executionTime() == null || !Double.isFinite(call.executionTime())
                ? null
                : (long) (call.executionTime() * 1000);
        return new ToolInvocationRecord(
                call.name(),
                call.arguments(),
                resultText(call.result()),
                failed ? InvocationStatus.ERROR : InvocationStatus.COMPLETED,
                call.error(),
                elapsedMs,
                null,
                null,
                teeKey(call.result()));
    }

    /**
     * A tool result as output text (spec §1.1): {@code null} stays {@code null}; a {@code String} is kept as
     * is; a {@code Map} or {@code List} becomes compact key-sorted JSON ({@link CanonicalJson}); anything
     * else becomes {@code String.valueOf(result)} (so {@code true}, not Python's {@code True}).
     *
     * @param result the raw result, or {@code null}
     * @return the text, or {@code null}
     * @throws IllegalArgumentException when a map or list holds a value that cannot be written as JSON
     */
    public static String resultText(Object result) {
        if (result == null) {
            return null;
        }
        if (result instanceof String text) {
            return text;
        }
        if (result instanceof Map<?, ?> || result instanceof List<?>) {
            try {
                return CanonicalJson.write(result);
            } catch (UncheckedIOException e) {
                throw new IllegalArgumentException(
                        "Tool result is not JSON: " + e.getMessage()
                                + "; use only strings, numbers, booleans, null, lists and maps with string keys",
                        e);
            }
        }
        return String.valueOf(result);
    }

    private static String teeKey(Object result) {
        if (result instanceof Map<?, ?> map && map.get("_tee") instanceof Map<?, ?> tee) {
            Object key = tee.get("key");
            return key == null ? null : String.valueOf(key);
        }
        return null;
    }

    private static boolean isNullOrEmpty(String text) {
        return text == null || text.isEmpty();
    }
}
