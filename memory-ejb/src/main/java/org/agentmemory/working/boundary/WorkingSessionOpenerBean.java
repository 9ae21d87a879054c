package org.agentmemory.working.boundary;

import jakarta.annotation.Resource;
import jakarta.ejb.LocalBean;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import org.agentmemory.api.working.WorkingSessionRef;

/**
 * Creates a session's header row in a transaction of its own, so that the caller can then lock it. Two first writers
 * of one session both get here; one inserts, the other's insert waits for it and then fails on the unique key
 * (tenant, agent, session), which is no error: the row exists, and the caller locks it.
 */
@Stateless
@LocalBean
public class WorkingSessionOpenerBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Resource
    SessionContext context;

    /**
     * @param session the session, checked
     * @return whether this call inserted the row ({@code false}: it existed, or another caller inserted it meanwhile)
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean open(WorkingSessionRef session) {
        try {
            return WorkingStore.open(em, session);
        } catch (PersistenceException raced) {
            // Another first writer inserted the row: nothing to do but roll this transaction back.
            context.setRollbackOnly();
            return false;
        }
    }
}
