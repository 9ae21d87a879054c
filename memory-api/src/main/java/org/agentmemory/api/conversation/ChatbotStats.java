package org.agentmemory.api.conversation;

import java.io.Serializable;

/**
 * Usage statistics of one agent within a tenant (spec §11, {@code get_chatbot_stats}).
 *
 * @param chatbotId                 the agent, or {@code null} for the default agent
 * @param totalConversations        number of conversations
 * @param totalTurns                number of turns across them
 * @param uniqueUsers               number of distinct users
 * @param avgTurnsPerConversation   totalTurns / totalConversations, 0 when there is none
 */
public record ChatbotStats(String chatbotId, long totalConversations, long totalTurns, long uniqueUsers,
        double avgTurnsPerConversation) implements Serializable {
}
