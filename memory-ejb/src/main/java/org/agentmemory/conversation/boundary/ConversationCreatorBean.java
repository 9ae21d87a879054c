package org.agentmemory.conversation.boundary;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;

import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.conversation.control.ConversationStore;

/**
 * Creates a conversation in its own transaction, so that losing a creation race against a concurrent
 * writer (unique key violation) costs nothing but this short transaction: the caller then finds and
 * locks the row the winner committed.
 */
@Stateless
@LocalBean
public class ConversationCreatorBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /**
     * @param key      a validated key
     * @param metadata initial metadata or {@code null}
     * @return {@code true} if this call created it, {@code false} if it existed or a concurrent call won
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean createIfAbsent(ConversationKey key, Map<String, Object> metadata) {
        ConversationStore store = new ConversationStore(em);
        if (store.findByKey(key, false) != null) {
            return false;
        }
        try {
            store.insert(key, metadata, Instant.now().truncatedTo(ChronoUnit.MICROS));
            return true;
        } catch (PersistenceException raceLost) {
            // The provider marked this transaction rollback-only; the container rolls it back on return.
            return false;
        }
    }

    /**
     * Creates conversations for keys that were absent when the caller last looked (bulk import), all in one
     * transaction with batched inserts. If any of them was created meanwhile by a concurrent writer (unique key
     * violation), nothing is created and {@code -1} is returned: the caller then creates them one by one with
     * {@link #createIfAbsent(ConversationKey, Map)}.
     *
     * @param keys validated keys, in the order their ids should follow
     * @param now  the creation time
     * @return how many were created ({@code keys.size()}), or {@code -1} when a concurrent creation won a race
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int createAllAbsent(java.util.List<ConversationKey> keys, Instant now) {
        try {
            for (ConversationKey key : keys) {
                em.persist(new org.agentmemory.conversation.entity.Conversation(key.tenantId(), key.chatbotId(),
                        key.userId(), key.sessionId(), null, now));
            }
            em.flush();
            return keys.size();
        } catch (PersistenceException raceLost) {
            // The provider marked this transaction rollback-only; the container rolls it back on return.
            return -1;
        }
    }
}
