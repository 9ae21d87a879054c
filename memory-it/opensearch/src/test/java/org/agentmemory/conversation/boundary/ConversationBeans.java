package org.agentmemory.conversation.boundary;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.platform.config.Settings;

/**
 * The product's {@link ConversationMemoryBean} and the beans it delegates to wired as the container wires them,
 * outside a container: each call runs in its own resource-local transaction (the bean's {@code REQUIRED}), and the
 * {@link ConversationCreatorBean}
 * creates conversations in a separate transaction of its own (its {@code REQUIRES_NEW}); the bean's own import
 * write step joins the call's transaction, and {@code addTurn} writes in it as it does in a caller's JTA
 * transaction (the group commit of calls without a transaction is not exercised here).
 */
public final class ConversationBeans {

    /** A call of the bean. */
    @FunctionalInterface
    public interface Call<T> {
        /**
         * @param memory the bean
         * @return the result
         * @throws InvalidInputException as the bean throws it
         */
        T apply(ConversationMemory memory) throws InvalidInputException;
    }

    private final EntityManagerFactory emf;
    private final Settings settings;
    private final org.agentmemory.platform.search.DeferredIndexing deferredIndexing =
            new org.agentmemory.platform.search.DeferredIndexing();
    private final WriteCoordination coordination = new WriteCoordination();

    /**
     * @param emf      the persistence unit
     * @param settings the settings in effect
     */
    public ConversationBeans(EntityManagerFactory emf, Settings settings) {
        this.emf = emf;
        this.settings = settings;
    }

    /**
     * Calls the bean in a transaction that commits when the call returns (Hibernate Search indexes on commit).
     *
     * @param call what to do with the bean
     * @param <T>  the result type
     * @return what the bean answered
     * @throws InvalidInputException as the bean throws it (the transaction is rolled back)
     */
    public <T> T inTransaction(Call<T> call) throws InvalidInputException {
        EntityManager em = emf.createEntityManager();
        try {
            em.getTransaction().begin();
            ConversationMemoryBean bean = new ConversationMemoryBean();
            ResourceLocalCreator creator = new ResourceLocalCreator(emf);
            org.agentmemory.platform.schema.DatabaseStatisticsBean statistics =
                    new org.agentmemory.platform.schema.DatabaseStatisticsBean(); // never refreshes outside a container
            org.agentmemory.omission.boundary.OmissionStoreBean omissions =
                    org.agentmemory.omission.boundary.OmissionStores.of(em);
            ConversationReaderBean reader = new ConversationReaderBean();
            reader.em = em;
            ConversationWriters writers = new ConversationWriters();
            writers.em = em;
            writers.settings = settings;
            writers.creator = creator;
            writers.statistics = statistics;
            writers.coordination = coordination;
            TurnWriterBean writer = new TurnWriterBean();
            writer.em = em;
            writer.settings = settings;
            writer.writers = writers;
            writer.deferredIndexing = deferredIndexing;
            writer.coordination = coordination;
            // no CDI here to deliver the background Stage 2 refresh; these tests are about the search index
            writer.stage2 = new org.agentmemory.compaction.boundary.Stage2Config() {
                @Override
                public boolean enabled() {
                    return false;
                }
            };
            // Every call runs in this resource-local transaction, which the bean sees as its caller's: it writes
            // in it (the path of a caller with a JTA transaction) instead of group-committing.
            writer.transactions =
                    (jakarta.transaction.TransactionSynchronizationRegistry) java.lang.reflect.Proxy.newProxyInstance(
                            ConversationBeans.class.getClassLoader(),
                            new Class<?>[] {jakarta.transaction.TransactionSynchronizationRegistry.class},
                            (proxy, method, args) -> {
                                if (method.getName().equals("getTransactionKey")) {
                                    return em.getTransaction();
                                }
                                throw new UnsupportedOperationException("TransactionSynchronizationRegistry."
                                        + method.getName() + " outside a container");
                            });
            ConversationImportBean importer = new ConversationImportBean();
            importer.em = em;
            importer.settings = settings;
            importer.creator = creator;
            importer.writers = writers;
            importer.deferredIndexing = deferredIndexing;
            importer.coordination = coordination;
            // The bean calls its own REQUIRES_NEW import step through its business object; here that step
            // simply joins this call's transaction.
            importer.context = (jakarta.ejb.SessionContext) java.lang.reflect.Proxy.newProxyInstance(
                    ConversationBeans.class.getClassLoader(),
                    new Class<?>[] {jakarta.ejb.SessionContext.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("getBusinessObject")) {
                            return importer;
                        }
                        throw new UnsupportedOperationException(
                                "SessionContext." + method.getName() + " outside a container");
                    });
            ConversationEditorBean editor = new ConversationEditorBean();
            editor.em = em;
            editor.settings = settings;
            editor.creator = creator;
            editor.omissions = omissions;
            bean.reader = reader;
            bean.writer = writer;
            bean.importer = importer;
            bean.editor = editor;
            bean.omissions = omissions;
            T result = call.apply(bean);
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    /**
     * Erases a subject's conversations as the erasure steps do (issue 34 item 4): the product's
     * {@link ConversationEraserBean} locks and deletes them, a batch in one resource-local transaction.
     *
     * @param tenantId the tenant
     * @param userId   the subject
     * @return how many conversations were deleted
     */
    public int erase(String tenantId, String userId) {
        int deleted = 0;
        while (true) {
            int batch = org.agentmemory.testsupport.Databases.inTransaction(emf, em -> {
                ConversationEraserBean eraser = new ConversationEraserBean();
                eraser.em = em;
                eraser.omissions = org.agentmemory.omission.boundary.OmissionStores.of(em);
                java.util.List<Long> ids = eraser.conversationIds(tenantId, userId, 0, 20);
                ConversationEraserBean.LockedBatch locked = eraser.lock(tenantId, userId, ids);
                return eraser.delete(tenantId, userId, locked);
            });
            deleted += batch;
            if (batch == 0) {
                return deleted;
            }
        }
    }

    /** The creator bean with its {@code REQUIRES_NEW} transaction replaced by a resource-local one. */
    private static final class ResourceLocalCreator extends ConversationCreatorBean {

        private final EntityManagerFactory emf;

        ResourceLocalCreator(EntityManagerFactory emf) {
            this.emf = emf;
        }

        @Override
        public boolean createIfAbsent(ConversationKey key, Map<String, Object> metadata) {
            return inOwnTransaction(() -> super.createIfAbsent(key, metadata));
        }

        @Override
        public boolean createAllAbsent(java.util.List<ConversationKey> keys) {
            return inOwnTransaction(() -> super.createAllAbsent(keys));
        }

        /** As the container does: commits, or rolls back when the call marked the transaction rollback-only. */
        private <T> T inOwnTransaction(java.util.function.Supplier<T> call) {
            EntityManager tx = emf.createEntityManager();
            try {
                tx.getTransaction().begin();
                em = tx;
                T result = call.get();
                if (tx.getTransaction().getRollbackOnly()) {
                    tx.getTransaction().rollback();
                } else {
                    tx.getTransaction().commit();
                }
                return result;
            } finally {
                if (tx.getTransaction().isActive()) {
                    tx.getTransaction().rollback();
                }
                tx.close();
            }
        }
    }
}
