package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.List;
import org.agentmemory.api.compaction.CompactionCommit;

/**
 * A turn to build from a model's reply (spec §1.1 {@code from_ai_message}).
 *
 * @param userMessage     what the user said; never {@code null}
 * @param response        the provider-neutral assistant message; never {@code null}
 * @param contextUsed     retrieval context given to the model, or {@code null}
 * @param turnId          explicit turn id, or {@code null} (then {@code response.turnId}, else a random UUID)
 * @param assistantText   explicit assistant text, or {@code null} (then {@code response.text})
 * @param error           round-level failure text, or {@code null}
 * @param toolInvocations explicit invocations that REPLACE the ones derived from the tool calls (FEAT-538), or
 *                        {@code null} to derive them
 * @param commit          the compaction commit of this round (spec §5.4), or {@code null}
 */
public record AiMessageTurn(
        String userMessage,
        AssistantMessage response,
        String contextUsed,
        String turnId,
        String assistantText,
        String error,
        List<ToolInvocationRecord> toolInvocations,
        CompactionCommit commit)
        implements Serializable {}
