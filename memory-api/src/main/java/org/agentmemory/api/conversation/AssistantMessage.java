package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The final message an agent produced in one round: its text, the tools it called and the provider's
 * bookkeeping (spec §1.1 {@code from_ai_message}, the Python {@code AIMessage}). It is the input from which
 * the service builds a {@link TurnRecord}.
 *
 * <p>To stay {@link Serializable}, {@code usage} must hold JSON-like values only.
 *
 * @param text          the assistant's answer text, or {@code null} (read as {@code ""})
 * @param toolCalls     the tool calls in the order the model made them; {@code null} is read as empty; copied
 * @param usage         the provider's usage object as a JSON map, e.g. {@code {"input_tokens": 1234,
 *                      "output_tokens": 56}} or OpenAI's {@code {"prompt_tokens": ..., "completion_tokens": ...}}
 *                      (token counts); {@code null} when the provider reported none; copied (top level)
 * @param model         the model name, e.g. {@code claude-sonnet-4-5}, or {@code null}
 * @param provider      the provider name, e.g. {@code anthropic}, or {@code null}
 * @param finishReason  the provider's finish reason, e.g. {@code stop}, or {@code null}
 * @param responseTime  the round's response time in SECONDS (fractional), or {@code null}; stored as given in
 *                      the turn metadata under {@code response_time}
 * @param turnId        the turn id the agent assigned to this round, or {@code null}
 */
@Schema(
        description = "The final message an agent produced in one round (the Python AIMessage): the service builds"
                + " the turn from it. model, provider, usage, finishReason and responseTime go into the turn's metadata as"
                + " model, provider, usage, finish_reason and response_time.")
public record AssistantMessage(
        @Schema(
                description = "The assistant's answer text (the turn's assistantResponse unless assistantText is"
                        + " given); absent or null = \"\".")
        String text,

        @Schema(
                description = "The tool calls in the order the model made them; each becomes a tool invocation"
                        + " and its name an entry of toolsUsed. Absent or null = none.")
        List<ToolCall> toolCalls,

        @Schema(
                description =
                        "The provider's usage object, e.g. {\"input_tokens\": 1234, \"output_tokens\": 56} or"
                                + " OpenAI's prompt_tokens / completion_tokens; input_tokens (or prompt_tokens) calibrates the token"
                                + " estimates when a compaction commit is sent. Absent or null when the provider reported none.")
        Map<String, Object> usage,

        @Schema(description = "The model name, e.g. claude-sonnet-4-5, or null.")
        String model,

        @Schema(description = "The provider name, e.g. anthropic, or null.")
        String provider,

        @Schema(description = "The provider's finish reason, e.g. stop, or null.")
        String finishReason,

        @Schema(description = "The round's response time in seconds (fractional), or null; stored as given.")
        Double responseTime,

        @Schema(
                description = "The turn id the agent assigned to the round, used when the request has no turnId;"
                        + " absent, null or \"\" = a generated UUID.")
        String turnId)
        implements Serializable {

    /**
     * Copies the collections; {@code null} tool calls become an empty list.
     *
     * @param text         the answer text, or {@code null}
     * @param toolCalls    the tool calls, or {@code null}
     * @param usage        the provider's usage map, or {@code null}
     * @param model        the model name, or {@code null}
     * @param provider     the provider name, or {@code null}
     * @param finishReason the finish reason, or {@code null}
     * @param responseTime the response time in seconds, or {@code null}
     * @param turnId       the agent's turn id, or {@code null}
     */
    public AssistantMessage {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        usage = usage == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(usage));
    }

    /**
     * A message with just a text.
     *
     * @param text the answer text
     * @return the message, without tool calls, usage or provider details
     */
    public static AssistantMessage ofText(String text) {
        return new AssistantMessage(text, null, null, null, null, null, null, null);
    }
}
