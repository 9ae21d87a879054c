package org.agentmemory.conversation.control;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.platform.persistence.LockedBatch;
import org.hibernate.search.mapper.orm.Search;

/**
 * Deletes a selection of conversations batch by batch (issue 34 item 5), each batch in the caller's transaction: the
 * batch's rows are locked in ascending id order with the selection checked again under the lock (a conversation
 * written meanwhile no longer matches an idle selection and stays), their messages' search-index documents are
 * purged at commit, and the rows deleted (the database cascades to turns, tool invocations, omissions, messages and
 * their vectors). A store over the caller's {@code EntityManager}.
 */
public final class ConversationDeletions {

    /**
     * What one batch did.
     *
     * @param deleted    conversations deleted
     * @param lastId     the highest id the batch took, the {@code afterId} of the next batch; −1 when the selection
     *                   has no conversation left above {@code afterId}
     * @param messageIds the ids of the searchable messages the batch deleted, whose index documents it purged
     */
    public record Batch(int deleted, long lastId, List<Long> messageIds) {

        /** @return whether the selection had nothing left */
        public boolean done() {
            return lastId < 0;
        }
    }

    private final EntityManager em;
    private final Consumer<List<Long>> purge;

    /** @param em the caller's entity manager */
    public ConversationDeletions(EntityManager em) {
        this(em, ids -> {
            var plan = Search.session(em).indexingPlan();
            for (Long id : ids) {
                plan.purge(TurnMessage.class, id, null);
            }
        });
    }

    /**
     * @param em    the caller's entity manager
     * @param purge purges messages' search-index documents by id (tests without a search index pass their own)
     */
    ConversationDeletions(EntityManager em, Consumer<List<Long>> purge) {
        this.em = em;
        this.purge = purge;
    }

    /**
     * @param idleBefore the instant
     * @return the tenants that hold a conversation last written before it, ascending
     */
    public List<String> tenantsWithIdle(Instant idleBefore) {
        return em.createQuery(
                        "SELECT DISTINCT c.tenantId FROM Conversation c WHERE c.updatedAt < :idle ORDER BY c.tenantId",
                        String.class)
                .setParameter("idle", idleBefore)
                .getResultList();
    }

    /**
     * Locks and deletes the next batch of a selection (in a transaction).
     *
     * @param selection  the conversations
     * @param afterId    only ids above this (0 for the first batch)
     * @param limit      at most this many
     * @param skipLocked {@code true} to skip rows another transaction holds (the idle sweep, which several servers
     *                   run at once); {@code false} to wait for them (an explicit delete, which must not miss a
     *                   conversation because a turn was being written to it)
     * @return what the batch did
     */
    public Batch deleteNext(ConversationSelection selection, long afterId, int limit, boolean skipLocked) {
        TypedQuery<Conversation> query = selection.bind(
                em.createQuery(
                        "SELECT c FROM Conversation c WHERE " + selection.where() + " ORDER BY c.id",
                        Conversation.class),
                afterId);
        List<Conversation> locked = skipLocked
                ? LockedBatch.take(query, limit)
                : query.setMaxResults(limit)
                        .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                        .getResultList();
        if (locked.isEmpty()) {
            return new Batch(0, -1, List.of());
        }
        List<Long> ids = new ArrayList<>(locked.size());
        for (Conversation c : locked) {
            ids.add(c.getId());
        }
        List<Long> messageIds = em.createQuery(
                        "SELECT m.id FROM TurnMessage m WHERE m.conversationId IN :ids", Long.class)
                .setParameter("ids", ids)
                .getResultList();
        purge(messageIds);
        em.flush();
        int deleted = em.createQuery("DELETE FROM Conversation c WHERE c.tenantId = :t AND c.id IN :ids")
                .setParameter("t", selection.tenantId())
                .setParameter("ids", ids)
                .executeUpdate();
        em.clear();
        return new Batch(deleted, ids.get(ids.size() - 1), messageIds);
    }

    /**
     * Purges messages' search-index documents when the transaction commits. A bulk delete purges a batch's messages a
     * second time once the batch has committed: the background embedder may hold some of them locked while the batch
     * runs (the delete then waits for it) and write their documents back, with their new vectors, just after its
     * commit; the second purge comes after that write.
     *
     * @param messageIds the messages
     */
    public void purge(List<Long> messageIds) {
        purge.accept(messageIds);
    }
}
