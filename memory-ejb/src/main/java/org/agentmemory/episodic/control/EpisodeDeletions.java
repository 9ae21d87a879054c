package org.agentmemory.episodic.control;

import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes episodes by owner (issue 34 items 4 and 5): one episode, a page of an agent's or a user's episodes. Every
 * query is scoped to the tenant and to the owner given; the rows go with their search-index documents, purged when
 * the caller's transaction commits ({@link EpisodeStore}). A store over the caller's {@code EntityManager}.
 */
public final class EpisodeDeletions {

    private final EntityManager em;
    private final EpisodeStore store;

    /** @param em the caller's entity manager, in a transaction */
    public EpisodeDeletions(EntityManager em) {
        this.em = em;
        this.store = new EpisodeStore(em);
    }

    /**
     * Deletes a page of an owner's episodes (issue 34 items 4 and 5), oldest id first, with their index documents.
     *
     * @param tenantId the tenant
     * @param agentId  only this agent's episodes, or {@code null} for every agent's
     * @param userId   only this user's episodes, or {@code null} for every user's
     * @param limit    at most this many
     * @return the public ids of the episodes deleted; fewer than {@code limit} when none are left
     */
    public List<String> deleteOfOwner(String tenantId, String agentId, String userId, int limit) {
        List<Object[]> rows = owned("SELECT e.id, e.episodeId", tenantId, agentId, userId, null)
                .setMaxResults(limit)
                .getResultList();
        List<Long> ids = new ArrayList<>(rows.size());
        List<String> episodeIds = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            ids.add((Long) row[0]);
            episodeIds.add((String) row[1]);
        }
        store.delete(ids);
        return episodeIds;
    }

    /**
     * Deletes one episode of an owner with its index document (issue 34 item 5).
     *
     * @param tenantId  the tenant
     * @param agentId   the agent it must belong to
     * @param userId    the user it must belong to, or {@code null} for any user
     * @param episodeId its public id
     * @return whether it existed for this owner (and is now deleted)
     */
    public boolean deleteOne(String tenantId, String agentId, String userId, String episodeId) {
        List<Object[]> rows = owned("SELECT e.id, e.episodeId", tenantId, agentId, userId, episodeId)
                .getResultList();
        List<Long> ids = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            ids.add((Long) row[0]);
        }
        return store.delete(ids) > 0;
    }

    private jakarta.persistence.TypedQuery<Object[]> owned(
            String select, String tenantId, String agentId, String userId, String episodeId) {
        String jpql = select + " FROM Episode e WHERE e.tenantId = :t"
                + (agentId == null ? "" : " AND e.agentId = :a")
                + (userId == null ? "" : " AND e.userId = :u")
                + (episodeId == null ? "" : " AND e.episodeId = :e")
                + " ORDER BY e.id";
        jakarta.persistence.TypedQuery<Object[]> q =
                em.createQuery(jpql, Object[].class).setParameter("t", tenantId);
        if (agentId != null) {
            q.setParameter("a", agentId);
        }
        if (userId != null) {
            q.setParameter("u", userId);
        }
        if (episodeId != null) {
            q.setParameter("e", episodeId);
        }
        return q;
    }
}
