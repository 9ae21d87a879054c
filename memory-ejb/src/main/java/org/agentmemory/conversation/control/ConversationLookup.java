package org.agentmemory.conversation.control;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.platform.validation.InputRules;

/**
 * Finds a conversation that must exist, scoped to its tenant, or says which one does not (404 problems name it).
 */
public final class ConversationLookup {

    private ConversationLookup() {}

    /**
     * @param store          the store of the caller's transaction
     * @param tenantId       the tenant
     * @param conversationId the conversation
     * @param lock           whether to take the writers' row lock
     * @return the conversation
     * @throws NotFoundException when the tenant holds no such conversation
     */
    public static Conversation byId(ConversationStore store, String tenantId, long conversationId, boolean lock)
            throws NotFoundException {
        Conversation c = tenantId == null ? null : store.find(tenantId, conversationId, lock);
        if (c == null) {
            throw NotFoundException.conversation(tenantId, conversationId);
        }
        return c;
    }

    /**
     * @param store the store of the caller's transaction
     * @param key   the key, validated here
     * @return the conversation (no lock)
     * @throws InvalidInputException when the key breaks a rule
     * @throws NotFoundException     when no conversation has the key
     */
    public static Conversation byKey(ConversationStore store, ConversationKey key)
            throws NotFoundException, InvalidInputException {
        InputRules.checkKey(key);
        Conversation c = store.findByKey(key, false);
        if (c == null) {
            throw notFound(key);
        }
        return c;
    }

    /** @return the problem of a key without a conversation */
    public static NotFoundException notFound(ConversationKey key) {
        return new NotFoundException(
                "conversation",
                null,
                "No conversation for userId '" + key.userId()
                        + "', sessionId '" + key.sessionId() + "', chatbotId "
                        + (key.chatbotId() == null ? "(default agent)" : "'" + key.chatbotId() + "'")
                        + " in tenant '" + key.tenantId() + "'.");
    }
}
