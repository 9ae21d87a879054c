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
     * @return one {@code "User: " + content} or {@code "Assistant: " + content} entry per message, joined with LF
     *         (a multi-line content stays multi-line, so the assembler may drop its first lines); {@code ""} for
     *         no messages
     */
    public static String flatten(List<HistoryMessage> messages) {
        StringBuilder out = new StringBuilder();
        for (HistoryMessage message : messages) {
            if (out.length() > 0) {
                out.append('\n');
            }
            out.append(HistoryMessage.USER.equals(message.role()) ? "User: " : "Assistant: ")
                    .append(message.content());
        }
        return out.toString();
    }
}
