package org.agentmemory.api.conversation;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Outcome of one tool invocation (spec §1.2). JSON: {@code "completed"} or {@code "error"}. */
@Schema(
        description = "Outcome of one tool invocation: completed or error. Lower case in JSON; accepted in any"
                + " case on input.")
public enum InvocationStatus {
    COMPLETED,
    ERROR
}
