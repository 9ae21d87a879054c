package org.agentmemory.recall.boundary;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import org.agentmemory.config.Settings;
import org.agentmemory.recall.control.MessageIndex;

/**
 * The background embedder of conversation messages ({@code memory.recall.embedding=background}, the default):
 * every second it gives vectors to up to {@value #BATCH} messages that were written without one, so turn
 * writes never wait for the embedding model and vector/hybrid recall sees a new message about a second later.
 * Non-persistent and safe on every server of a cluster: rows another embedder holds are skipped.
 */
@Singleton
public class MessageEmbeddingBean {

    /** Messages embedded per tick (one transaction). */
    static final int BATCH = 128;

    private static final Logger LOG = Logger.getLogger(MessageEmbeddingBean.class.getName());

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Settings settings;

    /** Runs every second; a tick that is still running makes the container skip the next one. */
    @Schedule(second = "*", minute = "*", hour = "*", persistent = false, info = "conversation message embedding")
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void embedPending() {
        try {
            int embedded = MessageIndex.embedPending(em, settings.embeddingModel(), BATCH);
            if (embedded > 0) {
                LOG.fine(() -> "Embedded " + embedded + " conversation messages");
            }
        } catch (RuntimeException | LinkageError e) {
            // The messages stay findable by full text; the next tick tries again.
            LOG.log(Level.WARNING, "Embedding conversation messages failed", e);
        }
    }
}
