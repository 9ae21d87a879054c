package org.agentmemory.conversation.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;
import org.agentmemory.platform.config.Settings;

/**
 * Enforces {@code memory.conversation.idle-ttl-seconds} (issue 34 item 5): every 10 minutes, deletes the conversations
 * of every tenant whose last write is older than the time to live, in batches ({@link ConversationDeletionBean}). Off
 * (the default) when the setting is 0. The timer is non-persistent and runs on every server: each batch skips rows
 * another server (or a writer) holds, and a conversation written since it was found idle is kept, so servers share
 * the work instead of waiting for each other.
 */
@Singleton
public class IdleConversationSweepBean {

    private static final Logger LOG = Logger.getLogger(IdleConversationSweepBean.class.getName());

    @EJB
    ConversationDeletionBean deletions;

    @Inject
    Settings settings;

    /** Runs every 10 minutes. */
    @Schedule(minute = "*/10", hour = "*", persistent = false, info = "conversation idle TTL")
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void sweep() {
        Duration ttl = settings.conversationIdleTtl();
        if (ttl == null) {
            return;
        }
        long deleted = deletions.deleteIdleEverywhere(Instant.now().minus(ttl));
        if (deleted > 0) {
            LOG.info(() -> "Deleted " + deleted + " conversations idle for more than " + ttl.toSeconds() + " s");
        }
    }
}
