package org.agentmemory.api.omission;

import java.io.Serializable;

/**
 * Content kept out of prompts and stored in the omission store (spec §1.3, §7).
 *
 * @param contentId {@code om_} + 16 hex digits
 * @param content   the exact content
 * @param turnId    the turn it came from
 * @param toolName  the tool that produced it
 * @param field     always {@code "output"}
 */
public record Omission(String contentId, String content, String turnId, String toolName, String field)
        implements Serializable {
}
