package org.agentmemory.conversation.control;

import jakarta.persistence.Query;
import java.time.Instant;
import java.util.Objects;
import org.agentmemory.conversation.entity.Conversation;

/**
 * Which conversations of a tenant a bulk delete takes (issue 34 item 5): those of one agent, of one user of an agent,
 * or those last written before an instant. Always scoped to one tenant; the other criteria narrow it.
 *
 * @param tenantId   the tenant; never {@code null}
 * @param chatbotKey only this agent's conversations (its stored key: {@link Conversation#toKey}), or {@code null}
 * @param userId     only this user's conversations, or {@code null}
 * @param idleBefore only conversations whose last write ({@code updatedAt}) is strictly before this instant, or
 *                   {@code null}
 */
public record ConversationSelection(String tenantId, String chatbotKey, String userId, Instant idleBefore) {

    public ConversationSelection {
        Objects.requireNonNull(tenantId, "tenantId");
    }

    /**
     * @param tenantId  the tenant
     * @param chatbotId the agent ({@code null}: the default agent)
     * @return every conversation of the agent
     */
    public static ConversationSelection ofChatbot(String tenantId, String chatbotId) {
        return new ConversationSelection(tenantId, Conversation.toKey(chatbotId), null, null);
    }

    /**
     * @param tenantId  the tenant
     * @param chatbotId the agent ({@code null}: the default agent)
     * @param userId    the user
     * @return the user's conversations with the agent
     */
    public static ConversationSelection ofUser(String tenantId, String chatbotId, String userId) {
        return new ConversationSelection(tenantId, Conversation.toKey(chatbotId), userId, null);
    }

    /**
     * @param tenantId   the tenant
     * @param idleBefore the instant
     * @return the tenant's conversations last written before the instant
     */
    public static ConversationSelection idleBefore(String tenantId, Instant idleBefore) {
        return new ConversationSelection(tenantId, null, null, idleBefore);
    }

    /**
     * @return the JPQL condition on {@code Conversation c} that selects these conversations with an id above
     *         {@code :after}; bind it with {@link #bind}
     */
    public String where() {
        return "c.tenantId = :t"
                + (chatbotKey == null ? "" : " AND c.chatbotKey = :b")
                + (userId == null ? "" : " AND c.userId = :u")
                + (idleBefore == null ? "" : " AND c.updatedAt < :idle")
                + " AND c.id > :after";
    }

    /**
     * @param query   a query whose condition is {@link #where()}
     * @param afterId only ids above this (0 from the start)
     * @param <Q>     the query type
     * @return {@code query}, bound
     */
    public <Q extends Query> Q bind(Q query, long afterId) {
        query.setParameter("t", tenantId);
        if (chatbotKey != null) {
            query.setParameter("b", chatbotKey);
        }
        if (userId != null) {
            query.setParameter("u", userId);
        }
        if (idleBefore != null) {
            query.setParameter("idle", idleBefore);
        }
        query.setParameter("after", afterId);
        return query;
    }
}
