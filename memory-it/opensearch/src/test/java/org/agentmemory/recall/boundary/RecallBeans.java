package org.agentmemory.recall.boundary;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.recall.MessageHit;
import org.agentmemory.api.recall.MessageRecallRequest;
import org.agentmemory.api.recall.ReindexStatus;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.search.SearchBeans;
import org.agentmemory.platform.search.SearchReindexBean;

/**
 * The product's {@link ConversationRecallBean} and {@link SearchReindexBean} wired as the container wires them,
 * outside a container.
 */
public final class RecallBeans {

    private final EntityManagerFactory emf;
    private final Settings settings;
    private final org.agentmemory.platform.search.EngineHybridBean engineHybrid;

    /**
     * @param emf      the persistence unit
     * @param settings the settings in effect
     */
    public RecallBeans(EntityManagerFactory emf, Settings settings) {
        this(emf, settings, null);
    }

    /**
     * @param emf          the persistence unit
     * @param settings     the settings in effect
     * @param engineHybrid the started engine hybrid decision, or {@code null} (client-side fusion)
     */
    public RecallBeans(
            EntityManagerFactory emf,
            Settings settings,
            org.agentmemory.platform.search.EngineHybridBean engineHybrid) {
        this.emf = emf;
        this.settings = settings;
        this.engineHybrid = engineHybrid;
    }

    /**
     * {@link ConversationRecallBean#searchMessages} with a fresh entity manager (as a transaction-scoped one).
     *
     * @param request the request
     * @return the hits
     * @throws InvalidInputException as the bean throws it
     */
    public List<MessageHit> searchMessages(MessageRecallRequest request) throws InvalidInputException {
        EntityManager em = emf.createEntityManager();
        try {
            ConversationRecallBean bean = new ConversationRecallBean();
            bean.em = em;
            bean.settings = settings;
            bean.engineHybrid = engineHybrid;
            return bean.searchMessages(request);
        } finally {
            em.close();
        }
    }

    /**
     * The product's mass reindex ({@link SearchReindexBean#run}, which the container runs asynchronously), run on
     * this thread until it ends.
     *
     * @return the status it ended with
     */
    public ReindexStatus reindex() {
        SearchReindexBean bean = SearchBeans.reindexBean(emf, settings);
        bean.run(null); // every tenant
        return bean.current();
    }

    /**
     * The product's index merge ({@link SearchReindexBean#merge}, which {@code POST /admin/reindex/merge} and the
     * nightly timer run asynchronously), run on this thread until it ends.
     *
     * @return the status it ended with
     */
    public ReindexStatus merge() {
        SearchReindexBean bean = SearchBeans.reindexBean(emf, settings);
        bean.merge("segments merged");
        return bean.current();
    }
}
