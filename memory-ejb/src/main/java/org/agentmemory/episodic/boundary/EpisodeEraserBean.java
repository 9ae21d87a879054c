package org.agentmemory.episodic.boundary;

import jakarta.annotation.Resource;
import jakarta.ejb.LocalBean;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.episodic.EpisodicMemoryOperations;
import org.agentmemory.episodic.control.EpisodeDeletions;
import org.agentmemory.episodic.control.EpisodeStore;
import org.agentmemory.platform.validation.InputRules;

/**
 * Deletes episodes with their search-index documents: a subject's in batches of the caller's transactions (right to
 * erasure, issue 34 item 4), and, behind {@link EpisodicMemoryBean}, one episode of an owner or an agent's (or one of
 * its users') whole episodic memory in transactions of {@value EpisodicMemoryOperations#DELETE_BATCH} episodes each
 * (issue 34 item 5). Every query is scoped to the tenant and the owner.
 */
@Stateless
@LocalBean
public class EpisodeEraserBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Resource
    SessionContext context;

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

    /**
     * The conversations that the next {@link #eraseBatch} of the subject's episodes name in their metadata
     * ({@value EpisodeFeedBean#CONVERSATION_KEY}): the dream cycle cites their turns beside the episodes, so a
     * statement's {@code turn:} evidence can outlive a conversation deleted earlier.
     *
     * @param tenantId the tenant
     * @param userId   the subject
     * @param limit    the batch size {@link #eraseBatch} will be called with
     * @return the conversation ids named, as text
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public java.util.Set<String> conversationsOfBatch(String tenantId, String userId, int limit) {
        java.util.Set<String> named = new java.util.HashSet<>();
        for (java.util.Map<String, Object> metadata : em.createQuery(
                        "SELECT e.metadata FROM Episode e WHERE e.tenantId = :t AND e.userId = :u ORDER BY e.id",
                        java.util.Map.class)
                .setParameter("t", tenantId)
                .setParameter("u", userId)
                .setMaxResults(limit)
                .getResultList()) {
            Object conversation = metadata == null ? null : metadata.get(EpisodeFeedBean.CONVERSATION_KEY);
            if (conversation != null) {
                named.add(conversation.toString());
            }
        }
        return named;
    }

    /** See {@link EpisodicMemoryOperations#deleteEpisode}. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void deleteEpisode(String tenantId, String agentId, String userId, String episodeId)
            throws NotFoundException, InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("agentId", agentId);
        InputRules.checkOptionalId("userId", userId);
        if (episodeId == null || !new EpisodeDeletions(em).deleteOne(tenantId, agentId, userId, episodeId)) {
            throw NotFoundException.episode(tenantId, episodeId);
        }
    }

    /** See {@link EpisodicMemoryOperations#deleteAgentEpisodes}. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteOfAgent(String tenantId, String agentId) throws InvalidInputException {
        return deleteOfOwner(tenantId, agentId, null);
    }

    /** See {@link EpisodicMemoryOperations#deleteUserEpisodes}. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteOfUser(String tenantId, String agentId, String userId) throws InvalidInputException {
        InputRules.checkId("userId", userId);
        return deleteOfOwner(tenantId, agentId, userId);
    }

    /** Batch after batch, each in a transaction of its own, until a batch comes back short. */
    private long deleteOfOwner(String tenantId, String agentId, String userId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("agentId", agentId);
        EpisodeEraserBean self = context.getBusinessObject(EpisodeEraserBean.class);
        long total = 0;
        int deleted;
        do {
            deleted = self.deleteOwnerBatch(tenantId, agentId, userId, EpisodicMemoryOperations.DELETE_BATCH);
            total += deleted;
        } while (deleted == EpisodicMemoryOperations.DELETE_BATCH);
        return total;
    }

    /**
     * One batch of an owner's episodes, in a transaction of its own.
     *
     * @return how many were deleted; fewer than {@code limit} when none are left
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public int deleteOwnerBatch(String tenantId, String agentId, String userId, int limit) {
        return new EpisodeDeletions(em)
                .deleteOfOwner(tenantId, agentId, userId, limit)
                .size();
    }
}
