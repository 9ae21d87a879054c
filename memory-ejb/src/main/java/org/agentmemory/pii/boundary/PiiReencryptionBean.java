package org.agentmemory.pii.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** One batch of a re-encryption under the current key, in a transaction of its own (issue 34 item 2). */
@Stateless
@LocalBean
public class PiiReencryptionBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    PiiStores stores;

    /**
     * @param tenantId the tenant
     * @param limit    most rows
     * @return rows rewritten; fewer than {@code limit} when none is left
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int batch(String tenantId, int limit) {
        return stores.durable(em).reencrypt(tenantId, limit);
    }
}
