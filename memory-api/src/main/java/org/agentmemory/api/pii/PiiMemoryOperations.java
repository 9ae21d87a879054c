package org.agentmemory.api.pii;

import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.RequiresRole;

/**
 * PII detection threads (issue 34 items 1–3, seed 002). A thread belongs to a user of a tenant: every operation is
 * scoped to {@code (tenantId, userId, threadId)}, so another user or tenant never sees it. Ids are 1–128 code points,
 * not blank, without control characters. Where the detections are kept ({@code memory.pii.store}: in-process, bounded,
 * or durable and shared by every server, hashed and encrypted) is configuration, not part of this contract.
 */
public interface PiiMemoryOperations {

    /**
     * Remembers the detections of one message, replacing any prior entry of that message (whose first-seen position
     * is kept). Each detection gets the thread's placeholder of its value (a given placeholder is ignored).
     *
     * @param tenantId   the caller's tenant
     * @param userId     the user the thread belongs to
     * @param threadId   the thread
     * @param messageId  the message
     * @param detections the detections, at most 1,000; empty remembers that the message holds none
     * @param role       who wrote the message; {@code null} means {@link MessageRole#USER}
     * @return what is remembered for the message, with placeholders
     * @throws InvalidInputException when an id, a label, a value, an offset or the confidence breaks a rule; the field
     *                               named is e.g. {@code detections[2].end}
     */
    @RequiresRole(RequiresRole.WRITER)
    ThreadDetections remember(
            String tenantId,
            String userId,
            String threadId,
            String messageId,
            List<Detection> detections,
            MessageRole role)
            throws InvalidInputException;

    /**
     * @param tenantId  the caller's tenant
     * @param userId    the user
     * @param threadId  the thread
     * @param messageId one message, or {@code null} for the whole thread merged in first-seen order (one detection per
     *                  value key: the value lower-cased, whitespace removed)
     * @return the detections; empty for an unknown or expired thread or message
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    ThreadDetections detections(String tenantId, String userId, String threadId, String messageId)
            throws InvalidInputException;

    /**
     * @param tenantId the caller's tenant
     * @param userId   the user
     * @param threadId the thread
     * @return per value key, the role of the value's first occurrence; empty for an unknown thread
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    Provenance provenance(String tenantId, String userId, String threadId) throws InvalidInputException;

    /**
     * Erases a thread.
     *
     * @param tenantId the caller's tenant
     * @param userId   the user
     * @param threadId the thread
     * @return the messages and detections dropped; zeros when the thread held nothing
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    Forgotten forget(String tenantId, String userId, String threadId) throws InvalidInputException;

    /**
     * Replaces each detected value of a text by the thread's placeholder of that value ({@code <<LABEL_n>>}, n counted
     * per label from 1 in the order values are first seen in the thread), and remembers the detections under the
     * message. Without detections, the built-in detector finds e-mail addresses, phone numbers, IBANs (mod-97 checked)
     * and payment card numbers (Luhn checked). Values the thread already knows are replaced wherever they occur again
     * (case ignored, whole words), detected or not. Overlapping detections keep the earliest, then the longest.
     *
     * @param tenantId   the caller's tenant
     * @param userId     the user
     * @param threadId   the thread
     * @param messageId  the message; {@code null} derives one from the text
     * @param text       the text, at most 262,144 code points, no NUL
     * @param detections the detections in the text (offsets in code points; each value must equal the text at its
     *                   offsets), or {@code null} for the built-in detector
     * @param role       who wrote the text; {@code null} means {@link MessageRole#USER}
     * @return the anonymized text and what was replaced
     * @throws InvalidInputException when the text, an id or a detection breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    AnonymizedText anonymize(
            String tenantId,
            String userId,
            String threadId,
            String messageId,
            String text,
            List<Detection> detections,
            MessageRole role)
            throws InvalidInputException;

    /**
     * Restores the values of a thread's placeholders in a text, e.g. a model's reply. Only this thread's placeholders
     * are restored: another thread's, or unknown ones, stay as they are.
     *
     * @param tenantId the caller's tenant
     * @param userId   the user
     * @param threadId the thread
     * @param text     the text, at most 262,144 code points, no NUL
     * @return the restored text and how many placeholders were replaced
     * @throws InvalidInputException when the text or an id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    RestoredText deanonymize(String tenantId, String userId, String threadId, String text) throws InvalidInputException;

    /**
     * Rewrites the tenant's stored messages of the durable store that are not under the current key (encrypted under
     * the old key {@code memory.pii.old-key}, or stored in clear before keys were configured), in batches of 500 per
     * transaction. Nothing to do on the in-process store or without keys.
     *
     * @param tenantId the caller's tenant
     * @return the rows rewritten
     * @throws InvalidInputException when the tenant id breaks a rule
     */
    @RequiresRole(RequiresRole.ADMIN)
    Reencrypted reencrypt(String tenantId) throws InvalidInputException;
}
