package org.agentmemory.api.omission;

import java.io.Serializable;
import java.util.Objects;

/**
 * One piece of content offloaded from a turn to the omission store (spec §1.3 {@code Omission}, §6 step 4).
 * The turn keeps a preview of at most 200 code points and records {@code contentId} under
 * {@code omitted[field]} of the tool invocation.
 *
 * @param contentId {@code "om_"} + 16 lowercase hex digits: BLAKE2b with an 8-byte digest over the UTF-8
 *                  bytes of {@code content} (spec §7.1); never {@code null}
 * @param content   the full offloaded text; for a write-time offload exactly as the client sent it (CR LF,
 *                  JSON spacing and key order kept; only U+0000, which no database text column keeps, removed),
 *                  for a compaction-time offload the stored (normalized) output; never {@code null}
 * @param turnId    the turn the content came from; never {@code null}
 * @param toolName  the tool whose output it was; may be {@code null} only if the invocation had no name
 * @param field     the offloaded field of the invocation: {@value #OUTPUT}, {@value #INPUT} or {@value #ERROR}
 */
public record Omission(String contentId, String content, String turnId, String toolName, String field)
        implements Serializable {

    /** A tool output (spec §1.2 {@code omitted}). */
    public static final String OUTPUT = "output";

    /** A tool input, as its JSON text (issue 31 item 3). */
    public static final String INPUT = "input";

    /** A tool error text (issue 31 item 3). */
    public static final String ERROR = "error";

    /**
     * Checks the required fields.
     *
     * @param contentId the content id ({@code om_} + 16 hex digits)
     * @param content   the full text
     * @param turnId    the turn it came from
     * @param toolName  the tool, or {@code null}
     * @param field     the field: {@value #OUTPUT}, {@value #INPUT} or {@value #ERROR}
     * @throws NullPointerException when {@code contentId}, {@code content}, {@code turnId} or {@code field}
     *                              is {@code null}
     */
    public Omission {
        Objects.requireNonNull(contentId, "contentId");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(turnId, "turnId");
        Objects.requireNonNull(field, "field");
    }
}
