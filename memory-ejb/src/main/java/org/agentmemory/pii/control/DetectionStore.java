package org.agentmemory.pii.control;

import java.util.List;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.Forgotten;
import org.agentmemory.api.pii.MessageRole;

/**
 * Where a PII thread's detections are kept (seed 002's {@code AnyConversationMemory} port, issue 34 item 2): the
 * in-process {@link InProcessDetectionStore} or the database ({@link DurableDetectionStore}). Implementations are
 * strategies chosen by {@code memory.pii.store}; callers see the same semantics from both.
 */
public interface DetectionStore {

    /**
     * Remembers a message's detections, replacing any prior entry of that message; a replaced message keeps its
     * first-seen position.
     *
     * @param thread     the thread
     * @param messageId  the message
     * @param detections its detections, with placeholders
     * @param role       who wrote it
     */
    void remember(ThreadKey thread, String messageId, List<Detection> detections, MessageRole role);

    /**
     * @param messageId a message id
     * @return the id a message is known by in {@link StoredMessage#messageId()} (its hash in a hashed store)
     */
    default String storedId(String messageId) {
        return messageId;
    }

    /**
     * Runs a read-then-write of one thread (placeholders handed out from what the thread holds) so that concurrent
     * updates of the thread do not hand out the same number twice.
     *
     * @param thread the thread
     * @param work   reads and remembers through this store
     * @param <T>    its result
     * @return what {@code work} returned
     */
    <T> T update(ThreadKey thread, java.util.function.Supplier<T> work);

    /**
     * @param thread the thread
     * @return its messages in first-seen order; empty when unknown or expired
     */
    List<StoredMessage> messages(ThreadKey thread);

    /**
     * @param thread the thread
     * @return what was dropped; zeros when it held nothing
     */
    Forgotten forget(ThreadKey thread);

    /**
     * @param tenantId the tenant
     * @param userId   the user
     * @return the threads of that user dropped and the detections they held
     */
    UserErasure forgetUser(String tenantId, String userId);
}
