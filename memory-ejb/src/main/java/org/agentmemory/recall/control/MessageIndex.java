package org.agentmemory.recall.control;

import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.persistence.LockedBatch;

/**
 * The embedding queue of stored conversation messages, in the caller's transaction: messages written without a
 * vector get one in the background, newest first; after a model change the others' vectors are replaced. The
 * messages themselves are built and written with their turns ({@code conversation.control.TurnMessages}).
 */
public final class MessageIndex {

    private static final Logger LOG = Logger.getLogger(MessageIndex.class.getName());

    /** Embedding model recorded for messages that have no vector on purpose (blank, or the model refused it). */
    public static final String NO_VECTOR = TurnMessage.NO_VECTOR;

    private MessageIndex() {}

    /**
     * Embeds a batch of stored messages that have no vector yet, newest first (live conversations get their
     * vectors within a tick even while a bulk import is being back-filled), skipping rows another server's
     * embedder has locked. Hibernate Search reindexes the updated messages when the transaction commits.
     *
     * @param em    the entity manager (in a transaction)
     * @param model the embedding model
     * @param max   at most this many messages
     * @return how many messages were embedded
     */
    public static int embedPending(EntityManager em, EmbeddingModel model, int max) {
        List<TurnMessage> pending = LockedBatch.take(
                em.createQuery(
                        "SELECT m FROM TurnMessage m" + " WHERE m.embeddingModel IS NULL ORDER BY m.id DESC",
                        TurnMessage.class),
                max);
        embedEach(pending, model);
        return pending.size();
    }

    private static void embedEach(List<TurnMessage> messages, EmbeddingModel model) {
        List<TurnMessage> embeddable = new java.util.ArrayList<>();
        for (TurnMessage m : messages) {
            if (m.getSearchText() == null || m.getSearchText().isBlank()) {
                m.setEmbedding(null, NO_VECTOR); // nothing to embed: full-text only, never pending again
            } else {
                embeddable.add(m);
            }
        }
        if (!embeddable.isEmpty()) {
            try {
                List<float[]> vectors = model.embedAll(
                        embeddable.stream().map(TurnMessage::getSearchText).toList());
                for (int i = 0; i < embeddable.size(); i++) {
                    embeddable.get(i).setEmbedding(vectors.get(i), model.name());
                }
            } catch (RuntimeException batchFailed) {
                // One bad text must not block the queue: embed one by one, and give up on the ones that fail.
                for (TurnMessage m : embeddable) {
                    try {
                        m.setEmbedding(model.embed(m.getSearchText()), model.name());
                    } catch (RuntimeException e) {
                        LOG.log(
                                Level.WARNING,
                                "Message " + m.getId() + " cannot be embedded; it stays full-text only",
                                e);
                        m.setEmbedding(null, NO_VECTOR);
                    }
                }
            }
        }
    }

    /**
     * Embeds again, with the configured model, up to {@code max} messages another model embedded (their vectors
     * cannot be compared with the configured model's). Entities are updated, so the index follows. Messages marked
     * {@link #NO_VECTOR} stay as they are.
     *
     * @param em    the entity manager (in a transaction)
     * @param model the configured model
     * @param max   at most this many messages
     * @return how many messages were found with another model's vector (0: none left)
     */
    public static int reembedOtherModels(EntityManager em, EmbeddingModel model, int max) {
        List<TurnMessage> stale = LockedBatch.take(
                em.createQuery(
                                "SELECT m FROM TurnMessage m"
                                        + " WHERE m.embeddingModel <> :model AND m.embeddingModel <> :none ORDER BY m.id DESC",
                                TurnMessage.class)
                        .setParameter("model", model.name())
                        .setParameter("none", NO_VECTOR),
                max);
        embedEach(stale, model);
        return stale.size();
    }

    /**
     * @param em             the entity manager
     * @param tenantId       the tenant
     * @param userId         only this user's messages, or {@code null}
     * @param conversationId only this conversation's messages, or {@code null}
     * @param model          the configured model's name
     * @return how many of those messages still wait for a vector of the configured model
     */
    public static long pendingEmbeddings(
            EntityManager em, String tenantId, String userId, Long conversationId, String model) {
        String jpql = "SELECT COUNT(m) FROM TurnMessage m WHERE m.tenantId = :t AND (m.embeddingModel IS NULL"
                + " OR (m.embeddingModel <> :model AND m.embeddingModel <> :none))"
                + (userId == null ? "" : " AND m.userId = :u")
                + (conversationId == null ? "" : " AND m.conversationId = :c");
        var q = em.createQuery(jpql, Long.class)
                .setParameter("t", tenantId)
                .setParameter("model", model)
                .setParameter("none", NO_VECTOR);
        if (userId != null) {
            q.setParameter("u", userId);
        }
        if (conversationId != null) {
            q.setParameter("c", conversationId);
        }
        return q.getSingleResult();
    }
}
