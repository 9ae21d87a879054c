package org.agentmemory.episodic.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import org.agentmemory.episodic.control.EpisodeStore;

/** Erases a subject's episodes (issue 34 item 4) in batches, each in its caller's transaction. */
@Stateless
@LocalBean
public class EpisodeEraserBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /**
     * Deletes up to {@code limit} of the subject's episodes with their search-index documents (purged at commit).
     *
     * @param tenantId the tenant
     * @param userId   the subject: episodes whose namespace names this user
     * @param limit    at most this many
     * @return the public ids of the episodes deleted; fewer than {@code limit} when none are left
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public List<String> eraseBatch(String tenantId, String userId, int limit) {
        return new EpisodeStore(em).deleteOfUser(tenantId, userId, limit);
    }
}
