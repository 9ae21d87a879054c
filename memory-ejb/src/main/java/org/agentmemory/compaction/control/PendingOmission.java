package org.agentmemory.compaction.control;

import java.util.Objects;

/**
 * A tool output a compaction replaced by an omission notice (spec §1.3 {@code Omission}, §8.4 rule 2):
 * it must be written to the omission store BEFORE the rendered history is sent (spec §5.4 step 4), so
 * every id the model sees can be recovered.
 *
 * @param contentId {@code om_} + 16 hex digits, {@link org.agentmemory.omission.control.ContentIds} of
 *                  {@code content}; never {@code null}
 * @param content   the full output text; never {@code null}
 * @param turnId    the turn the output belongs to
 * @param toolName  the invoked tool
 * @param field     always {@code "output"} in this version
 */
public record PendingOmission(String contentId, String content, String turnId, String toolName, String field) {

    /** The only field omitted in this version. */
    public static final String OUTPUT = "output";

    public PendingOmission {
        Objects.requireNonNull(contentId, "contentId");
        Objects.requireNonNull(content, "content");
    }
}
