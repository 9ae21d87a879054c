package org.agentmemory.pii.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.agentmemory.pii.control.ThreadKey;

/**
 * Creates a durable PII thread's lock row in a transaction of its own (issue 34 item 2), committed before the caller's
 * update locks it, so that two concurrent first messages of a thread run one after the other instead of numbering
 * values alike.
 */
@Stateless
@LocalBean
public class PiiThreadLocksBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    PiiStores stores;

    /**
     * Inserts the thread's lock row unless it exists.
     *
     * @param thread the thread
     * @throws jakarta.ejb.EJBException when a concurrent transaction inserted it first (the row exists then)
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void create(ThreadKey thread) {
        var store = stores.durable(em);
        if (!store.hasThreadLock(thread)) {
            store.createThreadLock(thread);
        }
    }
}
