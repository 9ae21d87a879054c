package org.agentmemory.pii.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.agentmemory.pii.control.UserErasure;

/**
 * Right to erasure of PII threads (issue 34 item 4; called by the erasure component): every thread of a user, in the
 * durable store and in this server's in-process store, and the erasure recorded so that every other server's
 * in-process store drops the user's threads before serving them and within {@link PiiStores#POLL_SECONDS} seconds
 * anyway ({@link PiiStores#dropErased()}).
 */
@Stateless
@LocalBean
public class PiiEraserBean {

    /**
     * What was erased.
     *
     * @param threads    threads removed (a thread held in both stores counts twice)
     * @param detections detections they held
     */
    public record ErasedThreads(long threads, long detections) {}

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    PiiStores stores;

    /**
     * Erases every PII thread of a user, in the caller's transaction or a new one.
     *
     * @param tenantId the tenant
     * @param userId   the user
     * @return the threads and detections removed from both stores; zeros when there were none
     */
    public ErasedThreads forgetUser(String tenantId, String userId) {
        UserErasure erased = stores.durable(em)
                .forgetUser(tenantId, userId)
                .plus(stores.inProcess().forgetUser(tenantId, userId));
        return new ErasedThreads(erased.threads(), erased.detections());
    }
}
