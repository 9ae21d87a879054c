package org.agentmemory.conversation.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.agentmemory.conversation.control.TurnsDropped;

/**
 * One Stage 2 refresh per conversation at a time on this server (issue 35 item 4): a commit that drops turns while the
 * conversation's refresh runs leaves its event here, and the running refresh takes the newest one when it is done,
 * instead of each commit starting a refresh that plans from the same stored summary and loses the race to store.
 * Other servers still refresh on their own; the version check of {@link SummaryRefreshBean} settles those. The owner
 * of the state shared by every {@link SummaryRefreshBean} instance.
 */
@ApplicationScoped
public class SummaryRefreshQueue {

    private final Map<Long, TurnsDropped> pending = new ConcurrentHashMap<>();
    private final Set<Long> running = ConcurrentHashMap.newKeySet();

    /**
     * @param dropped a commit's event
     * @return whether the caller runs the conversation's refresh now; {@code false} when one runs already (it takes
     *         this event, or a newer one, when done)
     */
    public boolean offer(TurnsDropped dropped) {
        pending.put(dropped.conversationId(), dropped); // the latest commit's event stands for the earlier ones
        return running.add(dropped.conversationId());
    }

    /**
     * @param conversationId a conversation whose refresh the caller runs
     * @return the newest event to run next, or {@code null} when none is left (the conversation is then released)
     */
    public TurnsDropped next(long conversationId) {
        while (true) {
            TurnsDropped next = pending.remove(conversationId);
            if (next != null) {
                return next;
            }
            running.remove(conversationId);
            // an event offered between the two lines above found the conversation running: take it back
            if (!pending.containsKey(conversationId) || !running.add(conversationId)) {
                return null;
            }
        }
    }
}
