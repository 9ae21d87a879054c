package org.agentmemory.api.recall;

import java.io.Serializable;
import org.agentmemory.api.episodic.RecallMode;

/**
 * A search over stored conversation messages (each user message and each assistant response on its own).
 * The scope is a user's conversations (optionally of one agent) or one conversation; it is applied inside
 * every retrieval leg.
 *
 * @param tenantId       the tenant; required
 * @param userId         the user whose conversations are searched; required unless {@code conversationId} is set
 * @param chatbotId      only this agent's conversations, or {@code null} for every agent's (with {@code userId})
 * @param conversationId only this conversation, or {@code null}
 * @param query          the query; required, not blank; NFC-normalised
 * @param mode           {@code null} for {@link RecallMode#HYBRID}
 * @param topK           1 to {@value #MAX_TOP_K}; {@code null} for {@value #DEFAULT_TOP_K}
 */
public record MessageRecallRequest(
        String tenantId,
        String userId,
        String chatbotId,
        Long conversationId,
        String query,
        RecallMode mode,
        Integer topK)
        implements Serializable {

    /** Largest {@code topK}. */
    public static final int MAX_TOP_K = 100;
    /** Default {@code topK}. */
    public static final int DEFAULT_TOP_K = 10;

    /** @return the mode or {@link RecallMode#HYBRID} */
    public RecallMode effectiveMode() {
        return mode == null ? RecallMode.HYBRID : mode;
    }

    /** @return {@code topK} or its default */
    public int effectiveTopK() {
        return topK == null ? DEFAULT_TOP_K : topK;
    }
}
