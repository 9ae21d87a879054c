package org.agentmemory.episodic.boundary;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodicMemory;
import org.agentmemory.episodic.control.ReflectionService;
import org.agentmemory.platform.config.Settings;

/**
 * The product's {@link EpisodicMemoryBean} wired as the container wires it, outside a container: its entity
 * manager, settings and reflection service, and an {@link EpisodeWriterBean} whose {@code REQUIRED} transaction is
 * a resource-local one here. Each call gets a fresh entity manager, as a transaction-scoped one would be.
 */
public final class EpisodicBeans {

    /** A call of the bean. */
    @FunctionalInterface
    public interface Call<T> {
        /**
         * @param memory the bean
         * @return the result
         * @throws InvalidInputException as the bean throws it
         */
        T apply(EpisodicMemory memory) throws InvalidInputException;
    }

    private final EntityManagerFactory emf;
    private final Settings settings;
    private final ReflectionService reflection;
    private final org.agentmemory.platform.search.EngineHybridBean engineHybrid;

    /**
     * @param emf        the persistence unit
     * @param settings   the settings in effect
     * @param reflection the reflection service
     */
    public EpisodicBeans(EntityManagerFactory emf, Settings settings, ReflectionService reflection) {
        this(emf, settings, reflection, null);
    }

    /**
     * @param emf          the persistence unit
     * @param settings     the settings in effect
     * @param reflection   the reflection service
     * @param engineHybrid whether hybrid recall runs on the engine, or {@code null} for client-side fusion
     */
    public EpisodicBeans(
            EntityManagerFactory emf,
            Settings settings,
            ReflectionService reflection,
            org.agentmemory.platform.search.EngineHybridBean engineHybrid) {
        this.emf = emf;
        this.settings = settings;
        this.reflection = reflection;
        this.engineHybrid = engineHybrid;
    }

    /**
     * @param call what to do with the bean
     * @param <T>  the result type
     * @return what the bean answered
     * @throws InvalidInputException as the bean throws it
     */
    public <T> T call(Call<T> call) throws InvalidInputException {
        EntityManager em = emf.createEntityManager();
        try {
            EpisodicMemoryBean bean = new EpisodicMemoryBean();
            bean.em = em;
            bean.settings = settings;
            bean.reflection = reflection;
            bean.engineHybrid = engineHybrid;
            bean.writer = new ResourceLocalWriter(emf);
            return call.apply(bean);
        } finally {
            em.close();
        }
    }

    /**
     * Erases a subject's episodes as the erasure steps do (issue 34 item 4): the product's
     * {@link EpisodeEraserBean}, a batch in one resource-local transaction.
     *
     * @param tenantId the tenant
     * @param userId   the subject
     * @return the public ids of the episodes deleted
     */
    public List<String> erase(String tenantId, String userId) {
        List<String> deleted = new java.util.ArrayList<>();
        while (true) {
            List<String> batch = org.agentmemory.testsupport.Databases.inTransaction(emf, em -> {
                EpisodeEraserBean eraser = new EpisodeEraserBean();
                eraser.em = em;
                return eraser.eraseBatch(tenantId, userId, 500);
            });
            deleted.addAll(batch);
            if (batch.size() < 500) {
                return deleted;
            }
        }
    }

    /** The writer bean with its container transaction replaced by a resource-local one. */
    private static final class ResourceLocalWriter extends EpisodeWriterBean {

        private final EntityManagerFactory emf;

        ResourceLocalWriter(EntityManagerFactory emf) {
            this.emf = emf;
        }

        @Override
        public List<Episode> store(List<Pending> pending) {
            EntityManager tx = emf.createEntityManager();
            try {
                tx.getTransaction().begin();
                em = tx;
                List<Episode> stored = super.store(pending);
                tx.getTransaction().commit();
                return stored;
            } finally {
                if (tx.getTransaction().isActive()) {
                    tx.getTransaction().rollback();
                }
                tx.close();
            }
        }
    }
}
