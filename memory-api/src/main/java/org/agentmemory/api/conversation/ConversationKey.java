package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Identifies one conversation history: (tenant, chatbot, user, session), spec §1.4 and §11.
 *
 * <p>Ids are stored and returned exactly as given (no trimming, no Unicode normalization); the service
 * rejects at creation ids that are empty, longer than {@value #MAX_ID_CODE_POINTS} code points, or that
 * contain control characters or unpaired surrogates. {@code a/b} and {@code a%2Fb} are different ids.
 *
 * @param tenantId  the tenant; over REST the caller's, from its token; never {@code null}
 * @param chatbotId the agent that owns the conversation, or {@code null} for the default agent
 * @param userId    the end user; never {@code null}
 * @param sessionId the session; never {@code null}
 */
@Schema(
        description = "Identifies one conversation: (tenant, chatbot, user, session). Ids are stored and returned"
                + " exactly as given: 1 to 128 code points, not blank, no control characters or unpaired surrogates; a/b"
                + " and a%2Fb are different ids.")
public record ConversationKey(
        @Schema(description = "The tenant: over REST the caller's, from its token.")
        String tenantId,

        @Schema(description = "The agent that owns the conversation, or null for the default agent.")
        String chatbotId,

        @Schema(description = "The end user; never null.") String userId,
        @Schema(description = "The session; never null.") String sessionId)
        implements Serializable {

    /** The tenant of the development token and of {@code memory.security.mode=none}. */
    public static final String DEFAULT_TENANT = "default";

    /** Longest accepted user, session or chatbot id, in Unicode code points. */
    public static final int MAX_ID_CODE_POINTS = 128;

    public ConversationKey {
        Objects.requireNonNull(tenantId, "tenantId");
    }

    /**
     * A key in the {@value #DEFAULT_TENANT} tenant.
     *
     * @param chatbotId the agent, or {@code null} for the default agent
     * @param userId    the user
     * @param sessionId the session
     * @return the key
     */
    public static ConversationKey of(String chatbotId, String userId, String sessionId) {
        return new ConversationKey(DEFAULT_TENANT, chatbotId, userId, sessionId);
    }
}
