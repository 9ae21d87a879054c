package org.agentmemory.pii.control;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.pii.AnonymizedText;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.Forgotten;
import org.agentmemory.api.pii.MessageRole;
import org.agentmemory.api.pii.Provenance;
import org.agentmemory.api.pii.RestoredText;
import org.agentmemory.api.pii.ThreadDetections;

/**
 * The operations of PII threads over a {@link DetectionStore} (issue 34 items 1 and 3, seed 002): remembering with
 * placeholders, the merged view and provenance, anonymization with the built-in detector as fallback, and restoration
 * limited to the thread. Input is checked by the caller except the detections ({@link DetectionRules}). Stateless.
 */
public final class PiiThreads {

    private final DetectionStore store;
    private final IdentifierDetector detector = new IdentifierDetector();

    /** @param store where the threads are kept */
    public PiiThreads(DetectionStore store) {
        this.store = store;
    }

    /**
     * @param thread     the thread
     * @param messageId  the message
     * @param detections its detections
     * @param role       who wrote it
     * @return the message's detections with placeholders
     * @throws InvalidInputException when a detection breaks a rule
     */
    public ThreadDetections remember(ThreadKey thread, String messageId, List<Detection> detections, MessageRole role)
            throws InvalidInputException {
        DetectionRules.check("detections", detections, null);
        return store.update(thread, () -> {
            List<Detection> assigned = new Placeholders(store.messages(thread)).assign(detections);
            store.remember(thread, messageId, assigned, role);
            return new ThreadDetections(thread.threadId(), messageId, assigned);
        });
    }

    /**
     * @param thread    the thread
     * @param messageId a message, or {@code null} for the whole thread merged in first-seen order
     * @return the detections
     */
    public ThreadDetections detections(ThreadKey thread, String messageId) {
        List<StoredMessage> messages = store.messages(thread);
        if (messageId == null) {
            return new ThreadDetections(thread.threadId(), null, new Placeholders(messages).merged());
        }
        String stored = store.storedId(messageId);
        List<Detection> one = messages.stream()
                .filter(m -> m.messageId().equals(stored))
                .findFirst()
                .map(StoredMessage::detections)
                .orElse(List.of());
        return new ThreadDetections(thread.threadId(), messageId, one);
    }

    /**
     * @param thread the thread
     * @return the messages and detections dropped; zeros when it held nothing
     */
    public Forgotten forget(ThreadKey thread) {
        return store.forget(thread);
    }

    /**
     * @param thread the thread
     * @return value key → role of its first occurrence
     */
    public Provenance provenance(ThreadKey thread) {
        return new Provenance(thread.threadId(), new Placeholders(store.messages(thread)).provenance());
    }

    /**
     * @param thread     the thread
     * @param messageId  the message, or {@code null} to derive one from the text (SHA-256 of it, so the same text is one
     *                   message)
     * @param text       the text
     * @param detections the caller's detections, or {@code null} for the built-in detector
     * @param role       who wrote it
     * @return the anonymized text
     * @throws InvalidInputException when a detection breaks a rule
     */
    public AnonymizedText anonymize(
            ThreadKey thread, String messageId, String text, List<Detection> detections, MessageRole role)
            throws InvalidInputException {
        List<Detection> found;
        if (detections == null) {
            found = detector.detect(text);
        } else {
            DetectionRules.check("detections", detections, text);
            found = nonOverlapping(detections);
        }
        String id = messageId != null ? messageId : "text-" + sha256(text);
        return store.update(thread, () -> {
            Placeholders placeholders = new Placeholders(store.messages(thread));
            List<Detection> all = new ArrayList<>(found);
            all.addAll(placeholders.occurrences(text));
            List<Detection> assigned = placeholders.assign(nonOverlapping(all));
            store.remember(thread, id, assigned, role);
            return new AnonymizedText(thread.threadId(), id, Placeholders.replace(text, assigned), assigned);
        });
    }

    /**
     * @param thread the thread
     * @param text   a text holding placeholders
     * @return the text with this thread's placeholders restored
     */
    public RestoredText deanonymize(ThreadKey thread, String text) {
        Placeholders.Restoration r = new Placeholders(store.messages(thread)).restore(text);
        return new RestoredText(thread.threadId(), r.text(), r.restored());
    }

    /** Sorted by start; an overlapping detection is dropped (the earlier wins, then the longer). */
    static List<Detection> nonOverlapping(List<Detection> detections) {
        List<Detection> sorted = new ArrayList<>(detections);
        sorted.sort(Comparator.comparingInt(Detection::start)
                .thenComparing(Comparator.comparingInt((Detection d) -> d.end() - d.start())
                        .reversed()));
        List<Detection> kept = new ArrayList<>();
        int end = -1;
        for (Detection d : sorted) {
            if (d.start() >= end) {
                kept.add(d);
                end = d.end();
            }
        }
        return kept;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
