package org.agentmemory.conversation;

import org.agentmemory.api.conversation.TurnRecord;

/**
 * One line of the JSONL import and export format: the conversation key (the tenant is always the caller's)
 * and one turn. Export writes every stored field of the turn; import ignores the fields the service assigns
 * ({@code sequence}, {@code tokenCount}, {@code state}, {@code schemaVersion}, {@code normVersion}).
 *
 * <pre>{"key":{"chatbotId":"bot","userId":"u","sessionId":"s"},"turn":{"turnId":"t1","userMessage":"hi","assistantResponse":"hello"}}</pre>
 *
 * @param key  the conversation; never {@code null}
 * @param turn the turn; never {@code null}
 */
public record JsonlLine(Key key, TurnRecord turn) {

    /**
     * @param chatbotId the agent, or {@code null} for the default agent
     * @param userId    the user
     * @param sessionId the session
     */
    public record Key(String chatbotId, String userId, String sessionId) {}
}
