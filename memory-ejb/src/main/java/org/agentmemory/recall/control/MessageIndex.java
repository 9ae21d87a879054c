package org.agentmemory.recall.control;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.persistence.EntityManager;

import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.embedding.EmbeddingModel;
import org.agentmemory.recall.entity.TurnMessage;
import org.hibernate.search.mapper.orm.Search;

/**
 * Builds, embeds and removes the searchable messages of turns, in the caller's transaction.
 *
 * <p>Embedding is split from writing: {@link #embed} runs before the conversation's row lock is taken (it is
 * the slow part, a few milliseconds per message), {@link #messages} runs under the lock and only builds the rows,
 * which the turn writer inserts with the turn ({@code org.agentmemory.conversation.control.TurnRows}).
 */
public final class MessageIndex {

    private static final Logger LOG = Logger.getLogger(MessageIndex.class.getName());
    private static final int BATCH = 64;

    /** Embedding model recorded for messages that have no vector on purpose (blank, or the model refused it). */
    public static final String NO_VECTOR = "none";

    private MessageIndex() {
    }

    /**
     * Embeds the messages of turns about to be written.
     *
     * @param model the embedding model
     * @param turns the input turns
     * @return search text → vector; empty (with a WARNING) when the model fails, and the messages are then stored
     *         without vectors (full-text recall still finds them)
     */
    public static Map<String, float[]> embed(EmbeddingModel model, List<TurnRecord> turns) {
        Set<String> texts = new LinkedHashSet<>();
        for (TurnRecord turn : turns) {
            if (turn != null) {
                MessageTexts.of(turn.userMessage(), turn.assistantResponse(), turn.metadata())
                        .forEach(m -> texts.add(m.searchText()));
            }
        }
        Map<String, float[]> vectors = new HashMap<>();
        List<String> all = List.copyOf(texts);
        try {
            for (int from = 0; from < all.size(); from += BATCH) {
                List<String> chunk = all.subList(from, Math.min(all.size(), from + BATCH));
                List<float[]> embedded = model.embedAll(chunk);
                for (int i = 0; i < chunk.size(); i++) {
                    vectors.put(chunk.get(i), embedded.get(i));
                }
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "Embedding " + all.size() + " messages with " + model.name()
                    + " failed; they are stored without vectors", e);
            vectors.clear();
        }
        return vectors;
    }

    /**
     * The searchable messages of a new turn, with their vectors when {@code vectors} has them, not persisted.
     *
     * @param turn    the new turn (normalized texts)
     * @param input   the turn as received (its texts are the keys of {@code vectors})
     * @param vectors from {@link #embed}
     * @param model   the embedding model's name
     * @return 0 to 2 messages (user, assistant)
     */
    public static List<TurnMessage> messages(Turn turn, TurnRecord input, Map<String, float[]> vectors, String model) {
        Map<String, String> rawTextByRole = new HashMap<>();
        MessageTexts.of(input.userMessage(), input.assistantResponse(), input.metadata())
                .forEach(m -> rawTextByRole.put(m.role(), m.searchText()));
        List<TurnMessage> messages = new java.util.ArrayList<>(2);
        for (MessageTexts.Message m : MessageTexts.of(turn.getUserMessage(), turn.getAssistantResponse(),
                turn.getMetadata())) {
            TurnMessage message = new TurnMessage(turn, m.role(), m.externalId(), m.author(), m.content(), m.searchText());
            String raw = rawTextByRole.get(m.role());
            float[] vector = raw == null ? null : vectors.get(raw);
            message.setEmbedding(vector, vector == null ? null : model);
            messages.add(message);
        }
        return messages;
    }

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
        List<TurnMessage> pending = LockedBatch.take(em.createQuery("SELECT m FROM TurnMessage m"
                + " WHERE m.embeddingModel IS NULL ORDER BY m.id DESC", TurnMessage.class), max);
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
                List<float[]> vectors = model.embedAll(embeddable.stream().map(TurnMessage::getSearchText).toList());
                for (int i = 0; i < embeddable.size(); i++) {
                    embeddable.get(i).setEmbedding(vectors.get(i), model.name());
                }
            } catch (RuntimeException batchFailed) {
                // One bad text must not block the queue: embed one by one, and give up on the ones that fail.
                for (TurnMessage m : embeddable) {
                    try {
                        m.setEmbedding(model.embed(m.getSearchText()), model.name());
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, "Message " + m.getId() + " cannot be embedded; it stays full-text only", e);
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
        List<TurnMessage> stale = LockedBatch.take(em.createQuery("SELECT m FROM TurnMessage m"
                + " WHERE m.embeddingModel <> :model AND m.embeddingModel <> :none ORDER BY m.id DESC", TurnMessage.class)
                .setParameter("model", model.name()).setParameter("none", NO_VECTOR), max);
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
    public static long pendingEmbeddings(EntityManager em, String tenantId, String userId, Long conversationId,
            String model) {
        String jpql = "SELECT COUNT(m) FROM TurnMessage m WHERE m.tenantId = :t AND (m.embeddingModel IS NULL"
                + " OR (m.embeddingModel <> :model AND m.embeddingModel <> :none))"
                + (userId == null ? "" : " AND m.userId = :u") + (conversationId == null ? "" : " AND m.conversationId = :c");
        var q = em.createQuery(jpql, Long.class).setParameter("t", tenantId).setParameter("model", model)
                .setParameter("none", NO_VECTOR);
        if (userId != null) {
            q.setParameter("u", userId);
        }
        if (conversationId != null) {
            q.setParameter("c", conversationId);
        }
        return q.getSingleResult();
    }

    /**
     * Removes a conversation's messages from the search index when the transaction commits (their rows go with
     * the conversation's turns by cascade).
     *
     * @param em             the entity manager
     * @param conversationId the conversation being cleared or deleted
     */
    public static void purgeConversation(EntityManager em, long conversationId) {
        List<Long> ids = em.createQuery("SELECT m.id FROM TurnMessage m WHERE m.conversationId = :c", Long.class)
                .setParameter("c", conversationId).getResultList();
        var plan = Search.session(em).indexingPlan();
        for (Long id : ids) {
            plan.purge(TurnMessage.class, id, null);
        }
    }
}
