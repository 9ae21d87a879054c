package org.agentmemory.conversation.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.agentmemory.conversation.control.ConversationWriter;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.schema.DatabaseStatisticsBean;

/**
 * Makes the write pipeline ({@link ConversationWriter}) for the beans that write turns ({@link TurnWriterBean},
 * {@link ConversationImportBean}): in the caller's transaction, with the server's shared write state
 * ({@link WriteCoordination}), the creator bean's own transactions and the planner statistics.
 */
@ApplicationScoped
public class ConversationWriters {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    ConversationCreatorBean creator;

    @EJB
    DatabaseStatisticsBean statistics;

    @Inject
    Settings settings;

    @Inject
    WriteCoordination coordination;

    /** @return a writer over the current transaction's persistence context */
    public ConversationWriter writer() {
        return new ConversationWriter(
                em,
                settings,
                coordination.conversationIds(),
                ConversationCreatorBean.through(creator),
                statistics::turnsWritten);
    }

    /** @return the creator, seen as the write pipeline sees it ({@link ConversationCreatorBean#through}) */
    public ConversationWriter.Creation creation() {
        return ConversationCreatorBean.through(creator);
    }
}
