package org.agentmemory.conversation.boundary;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.agentmemory.api.omission.Omission;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.omission.boundary.OmissionStoreBean;

/**
 * Stores the omissions a read-time compaction produced (spec §5.4 step 4 {@code put_many}) in a transaction of
 * their own, committed before the rendered history leaves the service, so every omission id a model sees is
 * recoverable. The conversation's row lock serializes this with its writers and with other flushes, which makes
 * the idempotent {@code put} safe under concurrency (same content, one row, one index entry per turn).
 */
@Stateless
public class OmissionFlushBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @jakarta.ejb.EJB
    OmissionStoreBean omissionStore;

    /**
     * @param tenantId       the conversation's tenant
     * @param conversationId the conversation
     * @param omissions      the omissions to store, each with its turn id
     * @param ttl            time to live of new content, or {@code null} for none
     * @return {@code false} when the conversation no longer exists (nothing was stored), else {@code true}
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public boolean flush(String tenantId, long conversationId, List<Omission> omissions, Duration ttl) {
        Conversation c = new ConversationStore(em).find(tenantId, conversationId, true);
        if (c == null) {
            return false;
        }
        omissionStore.putMany(
                c.getTenantId(), c.getId(), omissions, Instant.now().truncatedTo(ChronoUnit.MICROS), ttl);
        return true;
    }
}
