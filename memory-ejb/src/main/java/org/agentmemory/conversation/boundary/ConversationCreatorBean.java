package org.agentmemory.conversation.boundary;

import jakarta.ejb.EJBException;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.control.ConversationWriter;
import org.agentmemory.conversation.entity.Conversation;

/**
 * Creates a conversation in its own transaction, so that losing a creation race against a concurrent
 * writer (unique key violation) costs nothing but this short transaction: the caller then finds and
 * locks the row the winner committed.
 */
@Stateless
@LocalBean
public class ConversationCreatorBean {

    private static final Logger LOG = Logger.getLogger(ConversationCreatorBean.class.getName());

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
     * Creates the conversations of keys that did not exist a moment ago, all in one transaction of its own and in
     * the given order (their ids follow it): one multi-row insert instead of a transaction per conversation, which
     * took a fifth of an import's CPU. All or nothing: when one of them exists by now (a concurrent writer created
     * it), or the database aborts the transaction because a concurrent call inserts the same keys in another order
     * (a deadlock), nothing is created and {@code false} tells the caller to create them one by one with
     * {@link #createIfAbsent}.
     *
     * @param keys validated keys, each at most once
     * @return {@code true} if this call created every one of them
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean createAllAbsent(java.util.List<ConversationKey> keys) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        try {
            for (ConversationKey key : keys) {
                em.persist(new Conversation(key.tenantId(), key.chatbotId(), key.userId(), key.sessionId(), null, now));
            }
            em.flush();
            return true;
        } catch (PersistenceException raceLost) {
            // The provider marked this transaction rollback-only; the container rolls it back on return.
            return false;
        }
    }

    /**
     * Removes a conversation that an import created for lines that then all failed, so that a failed line
     * leaves nothing behind. Locks the row first; a conversation that holds a turn by then (a concurrent
     * writer got there) is kept.
     *
     * @param key a validated key
     * @return {@code true} if the conversation existed, was empty and is gone
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean removeIfEmpty(ConversationKey key) {
        ConversationStore store = new ConversationStore(em);
        Conversation c = store.findByKey(key, true);
        if (c == null
                || em.createQuery("SELECT COUNT(t) FROM Turn t WHERE t.conversation = :c", Long.class)
                                .setParameter("c", c)
                                .getSingleResult()
                        > 0) {
            return false;
        }
        return store.delete(key.tenantId(), c.getId());
    }

    /**
     * The write pipeline's view of a creator: calls through {@code proxy} (so that each call gets its own transaction),
     * and a call that the container fails (a concurrent writer committed the same key first, a deadlock) answers
     * {@code false}: the caller then uses the winner's row, or creates the keys one by one.
     *
     * @param proxy the injected creator (its business object, never {@code this})
     * @return the view
     */
    static ConversationWriter.Creation through(ConversationCreatorBean proxy) {
        return new ConversationWriter.Creation() {
            @Override
            public boolean createIfAbsent(ConversationKey key, Map<String, Object> metadata) {
                try {
                    return proxy.createIfAbsent(key, metadata);
                } catch (EJBException raceLost) {
                    return false;
                }
            }

            @Override
            public boolean createAllAbsent(java.util.List<ConversationKey> keys) {
                try {
                    return proxy.createAllAbsent(keys);
                } catch (EJBException failed) {
                    LOG.log(
                            Level.FINE,
                            "Creating " + keys.size() + " conversations at once failed; creating them one" + " by one",
                            failed);
                    return false;
                }
            }
        };
    }
}
