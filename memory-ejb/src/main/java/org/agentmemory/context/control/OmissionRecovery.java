package org.agentmemory.context.control;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.agentmemory.api.context.ContextMemoryOperations;

/**
 * The answers of the recovery tool {@code read_omitted_content} (spec §7.4) once the conversation scope is
 * known. Pure: the store is reached through the two lookups.
 */
public final class OmissionRecovery {

    private OmissionRecovery() {}

    /**
     * @param contentId    the content id, or {@code null}; an empty string counts as absent (Python truthiness)
     * @param turnId       the turn id, or {@code null}; used only without a content id; empty counts as absent
     * @param contentOf    content id → exact content, or {@code null} when unknown or expired
     * @param contentIdsOf turn id → the retrievable content ids of the turn, in insertion order
     * @return the content, or the blocks {@code <omitted id="…">} LF content LF {@code </omitted>} joined with LF,
     *         or the spec's exact message
     */
    public static String answer(
            String contentId,
            String turnId,
            Function<String, String> contentOf,
            Function<String, List<String>> contentIdsOf) {
        if (contentId != null && !contentId.isEmpty()) {
            String content = contentOf.apply(contentId);
            return content != null
                    ? content
                    : String.format(Locale.ROOT, ContextMemoryOperations.EXPIRED_MESSAGE, contentId);
        }
        if (turnId != null && !turnId.isEmpty()) {
            StringBuilder blocks = new StringBuilder();
            for (String id : contentIdsOf.apply(turnId)) {
                String content = contentOf.apply(id);
                if (content == null) {
                    continue;
                }
                if (blocks.length() > 0) {
                    blocks.append('\n');
                }
                blocks.append("<omitted id=\"")
                        .append(id)
                        .append("\">\n")
                        .append(content)
                        .append("\n</omitted>");
            }
            return blocks.length() > 0
                    ? blocks.toString()
                    : String.format(Locale.ROOT, ContextMemoryOperations.TURN_UNKNOWN_MESSAGE, turnId);
        }
        return ContextMemoryOperations.PROVIDE_MESSAGE;
    }
}
