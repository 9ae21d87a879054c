package org.agentmemory.api.working;

import java.io.Serializable;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One frame of a session's context stack (seed 003 {@code push_context}): what situation the agent is in. The frame on
 * top when an item is stored is attached to the item and compared with the top frame at search time.
 *
 * @param type     what kind of situation, e.g. {@code task}, {@code conversation}, {@code tool_use}; 1–128 code
 *                 points
 * @param data     what describes it, a JSON object (may be empty, never {@code null} once stored)
 * @param pushedAt when it was pushed; set by the service
 */
@Schema(description = "One frame of a session's context stack: the kind of situation and what describes it.")
public record ContextFrame(
        @Schema(description = "What kind of situation, e.g. task, conversation, tool_use; 1 to 128 code points.")
        String type,

        @Schema(description = "What describes it: a JSON object of at most 4,096 code points of keys and values.")
        Map<String, Object> data,

        @Schema(description = "When it was pushed (set by the service).", nullable = true)
        Instant pushedAt)
        implements Serializable {}
