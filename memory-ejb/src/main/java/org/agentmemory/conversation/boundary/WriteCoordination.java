package org.agentmemory.conversation.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.conversation.control.ConversationIdCache;
import org.agentmemory.conversation.control.ConversationWriter.PendingAppend;
import org.agentmemory.conversation.control.GroupCommit;

/**
 * What the writers of conversations share on this server, owned here once per deployment: the queue of
 * group-committed {@code addTurn} calls ({@link GroupCommit}), and the ids of conversations written recently (hints,
 * checked under the row lock, so a stale one costs a further lookup, never a wrong write).
 */
@ApplicationScoped
public class WriteCoordination {

    /** Most turns of concurrent {@code addTurn} calls written in one transaction. */
    static final int GROUP_COMMIT_MAX = 32;

    /**
     * Batches of concurrent {@code addTurn} calls sending their statements at the same time (not counting those that
     * only wait for their commit): one per core, at least two.
     */
    static final int GROUP_COMMIT_WRITERS = Math.max(2, Runtime.getRuntime().availableProcessors());

    /**
     * The fewest queued calls for which a batch starts beside one in progress ({@link GroupCommit}: smaller
     * batches cost a transaction each and little else).
     */
    static final int GROUP_COMMIT_MIN_EXTRA = 4;

    /** Most conversation ids remembered. */
    static final int CONVERSATION_ID_CACHE_SIZE = 10_000;

    private final GroupCommit<PendingAppend, AppendedTurn> appends =
            new GroupCommit<>(GROUP_COMMIT_MAX, GROUP_COMMIT_WRITERS, GROUP_COMMIT_MIN_EXTRA);

    private final ConversationIdCache conversationIds = new ConversationIdCache(CONVERSATION_ID_CACHE_SIZE);

    /** @return the queue of group-committed {@code addTurn} calls */
    public GroupCommit<PendingAppend, AppendedTurn> appends() {
        return appends;
    }

    /** @return the ids of conversations written recently by this server, by key */
    public ConversationIdCache conversationIds() {
        return conversationIds;
    }
}
