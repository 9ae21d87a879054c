package org.agentmemory.pii.control;

import java.util.List;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.MessageRole;

/**
 * The detections remembered for one message of a thread (seed 002).
 *
 * @param messageId  the message
 * @param role       who wrote it
 * @param detections its detections, with placeholders
 */
public record StoredMessage(String messageId, MessageRole role, List<Detection> detections) {

    public StoredMessage {
        detections = List.copyOf(detections);
    }
}
