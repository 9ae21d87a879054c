package org.agentmemory.conversation.control;

import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Locale;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.compaction.SummaryMethod;
import org.agentmemory.conversation.entity.Summary;

/**
 * The Stage 2 summaries of conversations (issue 35 item 4), over the caller's {@link EntityManager}: at most one per
 * conversation. Every query names the tenant.
 */
public final class SummaryStore {

    /** Conversation ids per {@code IN} list. */
    private static final int CHUNK = 500;

    private final EntityManager em;

    /** @param em the caller's entity manager */
    public SummaryStore(EntityManager em) {
        this.em = em;
    }

    /**
     * @param tenantId       the tenant
     * @param conversationId the conversation
     * @return its summary, or {@code null}
     */
    public Summary find(String tenantId, long conversationId) {
        List<Summary> found = em.createQuery(
                        "SELECT s FROM Summary s WHERE s.tenantId = :t AND s.conversationId = :c", Summary.class)
                .setParameter("t", tenantId)
                .setParameter("c", conversationId)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /**
     * @param summary a new summary, written ({@link Summary#write})
     */
    public void insert(Summary summary) {
        em.persist(summary);
    }

    /**
     * @param tenantId       the tenant
     * @param conversationId the conversation
     * @return how many summaries were deleted (0 or 1)
     */
    public int delete(String tenantId, long conversationId) {
        return em.createQuery("DELETE FROM Summary s WHERE s.tenantId = :t AND s.conversationId = :c")
                .setParameter("t", tenantId)
                .setParameter("c", conversationId)
                .executeUpdate();
    }

    /**
     * @param tenantId        the tenant
     * @param userId          the user the conversations belong to
     * @param conversationIds the conversations
     * @return how many of them have a summary
     */
    public long count(String tenantId, String userId, List<Long> conversationIds) {
        long count = 0;
        for (int from = 0; from < conversationIds.size(); from += CHUNK) {
            count += em.createQuery(
                            "SELECT COUNT(s) FROM Summary s WHERE s.tenantId = :t AND s.userId = :u"
                                    + " AND s.conversationId IN :ids",
                            Long.class)
                    .setParameter("t", tenantId)
                    .setParameter("u", userId)
                    .setParameter("ids", conversationIds.subList(from, Math.min(conversationIds.size(), from + CHUNK)))
                    .getSingleResult();
        }
        return count;
    }

    /**
     * @param tenantId        the tenant
     * @param userId          the user the conversations belong to
     * @param conversationIds the conversations
     * @return how many summaries were deleted
     */
    public int delete(String tenantId, String userId, List<Long> conversationIds) {
        int deleted = 0;
        for (int from = 0; from < conversationIds.size(); from += CHUNK) {
            deleted += em.createQuery("DELETE FROM Summary s WHERE s.tenantId = :t AND s.userId = :u"
                            + " AND s.conversationId IN :ids")
                    .setParameter("t", tenantId)
                    .setParameter("u", userId)
                    .setParameter("ids", conversationIds.subList(from, Math.min(conversationIds.size(), from + CHUNK)))
                    .executeUpdate();
        }
        return deleted;
    }

    /**
     * @param s a stored summary
     * @return it as the API shows it
     */
    public static HistorySummary record(Summary s) {
        return new HistorySummary(
                s.getConversationId(),
                s.getFirstTurnId(),
                s.getLastTurnId(),
                s.getFirstSeq(),
                s.getLastSeq(),
                s.getTurnCount(),
                s.getText(),
                s.getTokenCount(),
                s.getTokenizer(),
                SummaryMethod.valueOf(s.getMethod().toUpperCase(Locale.ROOT)),
                s.getRefreshes(),
                s.getAddedTurns(),
                false,
                s.getUpdatedAt());
    }

    /**
     * @param method a method
     * @return its stored form: {@code model} or {@code extractive}
     */
    public static String stored(SummaryMethod method) {
        return method.name().toLowerCase(Locale.ROOT);
    }
}
