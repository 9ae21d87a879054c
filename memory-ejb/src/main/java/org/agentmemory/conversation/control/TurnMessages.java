package org.agentmemory.conversation.control;

import jakarta.persistence.EntityManager;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.hibernate.search.mapper.orm.Search;

/**
 * Builds, embeds and removes the searchable messages of turns, in the caller's transaction.
 *
 * <p>Embedding is split from writing: {@link #embed} runs before the conversation's row lock is taken (it is
 * the slow part, a few milliseconds per message), {@link #messages} runs under the lock and only builds the rows,
 * which the turn writer inserts with the turn ({@link TurnRows}).
 */
public final class TurnMessages {

    private static final Logger LOG = Logger.getLogger(TurnMessages.class.getName());
    private static final int BATCH = 64;

    private TurnMessages() {}

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
            LOG.log(
                    Level.WARNING,
                    "Embedding " + all.size() + " messages with " + model.name()
                            + " failed; they are stored without vectors",
                    e);
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
        for (MessageTexts.Message m :
                MessageTexts.of(turn.getUserMessage(), turn.getAssistantResponse(), turn.getMetadata())) {
            TurnMessage message =
                    new TurnMessage(turn, m.role(), m.externalId(), m.author(), m.content(), m.searchText());
            String raw = rawTextByRole.get(m.role());
            float[] vector = raw == null ? null : vectors.get(raw);
            message.setEmbedding(vector, vector == null ? null : model);
            messages.add(message);
        }
        return messages;
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
                .setParameter("c", conversationId)
                .getResultList();
        var plan = Search.session(em).indexingPlan();
        for (Long id : ids) {
            plan.purge(TurnMessage.class, id, null);
        }
    }
}
