package org.agentmemory.api.pii;

import java.io.Serializable;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Per value of a thread, the role of the message it was first seen in (seed 002 {@code get_provenance}).
 *
 * @param threadId the thread
 * @param roles    value key (the value lower-cased, whitespace removed) → role of its first occurrence, in first-seen
 *                 order
 */
@Schema(description = "Per value of a thread, the role of the message it was first seen in.")
public record Provenance(
        @Schema(description = "The thread.") String threadId,

        @Schema(description = "Value key (lower case, without whitespace) to the role of its first occurrence.")
        Map<String, MessageRole> roles)
        implements Serializable {}
