package org.agentmemory.api.conversation;

/** Outcome of one tool invocation (spec §1.2). JSON: {@code "completed"} or {@code "error"}. */
public enum InvocationStatus {
    COMPLETED, ERROR
}
