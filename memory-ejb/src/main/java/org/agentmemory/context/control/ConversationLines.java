package org.agentmemory.context.control;

import java.util.List;
import org.agentmemory.api.compaction.HistoryMessage;

/**
 * The conversation section of an assembled context (spec §9.3 step 3): rendered messages flattened to
 * {@code User: …} and {@code Assistant: …} lines, oldest first. Pure.
 */
public final class ConversationLines {

    private ConversationLines() {}

    /**
     * @param messages rendered messages (alternating, user first); never {@code null}
     * @return one {@code "User: " + content} or {@code "Assistant: " + content} entry per message, oldest first: the
     *         units the assembler keeps or drops whole
     */
    public static List<String> messages(List<HistoryMessage> messages) {
        List<String> lines = new java.util.ArrayList<>(messages.size());
        for (HistoryMessage message : messages) {
            lines.add((HistoryMessage.USER.equals(message.role()) ? "User: " : "Assistant: ") + message.content());
        }
        return lines;
    }
}
