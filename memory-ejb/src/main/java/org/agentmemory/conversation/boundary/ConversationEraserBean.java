package org.agentmemory.conversation.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agentmemory.conversation.control.ConversationDeletions;
import org.agentmemory.conversation.control.SummaryStore;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.omission.boundary.OmissionStoreBean;

/**
 * Erases a subject's conversations (issue 34 item 4) in batches that the caller runs in transactions of its own:
 * {@link #lock} takes the batch's rows (so that no turn is written into them meanwhile and the counts are exact),
 * counts what they hold and names their turn ids, then {@link #delete} purges their messages' search-index documents
 * and deletes them with their Stage 2 summaries (the database cascades to turns, tool invocations, omissions and
 * messages).
 */
@Stateless
@LocalBean
public class ConversationEraserBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    OmissionStoreBean omissions;

    /**
     * What a locked batch of a subject's conversations holds.
     *
     * @param conversationIds the conversations locked, ascending; those deleted meanwhile are missing
     * @param turns           their turns
     * @param toolInvocations their tool invocations
     * @param omissions       their omissions
     * @param messageIds      the ids of their searchable messages
     * @param summaries       their Stage 2 summaries of earlier turns (issue 35 item 4)
     * @param turnIdsByAgent  chatbot id → the turn ids of its turns that no other user of the chatbot has (turns of the
     *                        default agent are not listed)
     */
    public record LockedBatch(
            List<Long> conversationIds,
            long turns,
            long toolInvocations,
            long omissions,
            List<Long> messageIds,
            long summaries,
            Map<String, List<String>> turnIdsByAgent) {

        /** @return how many searchable messages they hold */
        public long messages() {
            return messageIds.size();
        }
    }

    /**
     * @param tenantId the tenant
     * @param userId   the subject
     * @param afterId  only ids above this (0 for the first page)
     * @param limit    page size
     * @return the subject's conversation ids above {@code afterId}, ascending
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<Long> conversationIds(String tenantId, String userId, long afterId, int limit) {
        return em.createQuery(
                        "SELECT c.id FROM Conversation c WHERE c.tenantId = :t AND c.userId = :u AND c.id > :after"
                                + " ORDER BY c.id",
                        Long.class)
                .setParameter("t", tenantId)
                .setParameter("u", userId)
                .setParameter("after", afterId)
                .setMaxResults(limit)
                .getResultList();
    }

    /**
     * @param tenantId        the tenant
     * @param userId          the subject
     * @param conversationIds conversation ids as text (ids that are not numbers are ignored)
     * @return those that name a conversation of another user of the tenant
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public Set<String> ofOtherUsers(String tenantId, String userId, Set<String> conversationIds) {
        List<Long> ids = new ArrayList<>();
        for (String id : conversationIds) {
            try {
                ids.add(Long.parseLong(id));
            } catch (NumberFormatException e) {
                // not a conversation id
            }
        }
        Set<String> others = new HashSet<>();
        for (int from = 0; from < ids.size(); from += 500) {
            for (Long id : em.createQuery(
                            "SELECT c.id FROM Conversation c WHERE c.tenantId = :t AND c.userId <> :u AND c.id IN :ids",
                            Long.class)
                    .setParameter("t", tenantId)
                    .setParameter("u", userId)
                    .setParameter("ids", ids.subList(from, Math.min(ids.size(), from + 500)))
                    .getResultList()) {
                others.add(Long.toString(id));
            }
        }
        return others;
    }

    /**
     * Locks a batch of the subject's conversations in ascending id order (the order of every other locking path, so
     * no deadlock) and counts what they hold.
     *
     * @param tenantId the tenant
     * @param userId   the subject; conversations of another user are not locked
     * @param ids      the conversations
     * @return the batch
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public LockedBatch lock(String tenantId, String userId, List<Long> ids) {
        List<Long> locked = new ArrayList<>();
        for (Conversation c : em.createQuery(
                        "SELECT c FROM Conversation c WHERE c.tenantId = :t AND c.userId = :u AND c.id IN :ids"
                                + " ORDER BY c.id",
                        Conversation.class)
                .setParameter("t", tenantId)
                .setParameter("u", userId)
                .setParameter("ids", ids)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .getResultList()) {
            locked.add(c.getId());
        }
        if (locked.isEmpty()) {
            return new LockedBatch(List.of(), 0, 0, 0, List.of(), 0, Map.of());
        }
        Map<String, List<String>> turnIds = new LinkedHashMap<>();
        long turns = 0;
        for (Object[] row : em.createQuery(
                        "SELECT t.chatbotId, t.turnId FROM Turn t WHERE t.conversation.id IN :ids", Object[].class)
                .setParameter("ids", locked)
                .getResultList()) {
            turns++;
            if (row[0] != null) {
                turnIds.computeIfAbsent((String) row[0], k -> new ArrayList<>()).add((String) row[1]);
            }
        }
        turnIds.replaceAll((agent, ids2) -> unshared(tenantId, userId, agent, ids2));
        long invocations = count("SELECT COUNT(i) FROM ToolInvocation i WHERE i.turn.conversation.id IN :ids", locked);
        List<Long> messages = em.createQuery(
                        "SELECT m.id FROM TurnMessage m WHERE m.conversationId IN :ids", Long.class)
                .setParameter("ids", locked)
                .getResultList();
        return new LockedBatch(
                locked,
                turns,
                invocations,
                omissions.count(tenantId, locked),
                messages,
                new SummaryStore(em).count(tenantId, userId, locked),
                turnIds);
    }

    /**
     * Deletes a locked batch: its messages' search-index documents are purged when the transaction commits, its
     * summaries and rows now (the database cascades).
     *
     * @param tenantId the tenant
     * @param userId   the subject
     * @param batch    what {@link #lock} locked in this transaction
     * @return how many conversations were deleted
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public int delete(String tenantId, String userId, LockedBatch batch) {
        if (batch.conversationIds().isEmpty()) {
            return 0;
        }
        new ConversationDeletions(em).purge(batch.messageIds());
        new SummaryStore(em).delete(tenantId, userId, batch.conversationIds());
        em.flush();
        int deleted = em.createQuery("DELETE FROM Conversation c WHERE c.tenantId = :t AND c.id IN :ids")
                .setParameter("t", tenantId)
                .setParameter("ids", batch.conversationIds())
                .executeUpdate();
        em.clear();
        return deleted;
    }

    /**
     * Purges a committed batch's messages' search-index documents once more, in the caller's transaction: the
     * background embedder may write documents of messages it held locked back into the index just after the batch's
     * commit (see {@link ConversationDeletions#purge}).
     *
     * @param messageIds the messages of a committed batch
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public void purgeAgain(List<Long> messageIds) {
        new ConversationDeletions(em).purge(messageIds);
    }

    /**
     * Answers are keyed by agent and turn id only, and turn ids are unique per conversation: a turn id that another
     * user of the same agent also used cannot name the subject's answer alone, so it is left out (its answer is kept
     * rather than risk deleting another user's).
     *
     * @return the subject's turn ids of the agent that no other user of the agent has
     */
    private List<String> unshared(String tenantId, String userId, String agent, List<String> turnIds) {
        Set<String> shared = new HashSet<>();
        for (int from = 0; from < turnIds.size(); from += 500) {
            shared.addAll(em.createQuery(
                            "SELECT DISTINCT o.turnId FROM Turn o WHERE o.chatbotId = :a AND o.turnId IN :ids"
                                    + " AND o.conversation.tenantId = :t AND o.conversation.userId <> :u",
                            String.class)
                    .setParameter("a", agent)
                    .setParameter("ids", turnIds.subList(from, Math.min(turnIds.size(), from + 500)))
                    .setParameter("t", tenantId)
                    .setParameter("u", userId)
                    .getResultList());
        }
        if (shared.isEmpty()) {
            return turnIds;
        }
        List<String> own = new ArrayList<>(turnIds);
        own.removeAll(shared);
        return own;
    }

    private long count(String jpql, List<Long> ids) {
        return em.createQuery(jpql, Long.class).setParameter("ids", ids).getSingleResult();
    }
}
