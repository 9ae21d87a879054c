package org.agentmemory.api.conversation;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Usage statistics of one agent within a tenant (spec §11, {@code get_chatbot_stats}).
 *
 * @param chatbotId                 the agent, or {@code null} for the default agent
 * @param totalConversations        number of conversations
 * @param totalTurns                number of turns across them
 * @param uniqueUsers               number of distinct users
 * @param avgTurnsPerConversation   totalTurns / totalConversations, 0 when there is none
 */
@Schema(description = "Usage statistics of one agent within the tenant.")
public record ChatbotStats(
        @Schema(description = "The agent, or null for the default agent.")
        String chatbotId,

        @Schema(description = "Number of its conversations.")
        long totalConversations,

        @Schema(description = "Number of turns across them.")
        long totalTurns,

        @Schema(description = "Number of distinct users.") long uniqueUsers,

        @Schema(description = "totalTurns / totalConversations; 0 when there is no conversation.")
        double avgTurnsPerConversation)
        implements Serializable {}
