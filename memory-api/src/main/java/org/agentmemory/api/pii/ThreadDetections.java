package org.agentmemory.api.pii;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The detections of one message, or of a whole thread merged in first-seen order (one per value).
 *
 * @param threadId   the thread
 * @param messageId  the message, or {@code null} for the whole thread
 * @param detections the detections; empty when none are remembered (or the thread expired)
 */
@Schema(description = "The detections of one message, or of a whole thread merged in first-seen order.")
public record ThreadDetections(
        @Schema(description = "The thread.") String threadId,

        @Schema(description = "The message; null for the whole thread.", nullable = true)
        String messageId,

        @Schema(description = "The detections: one message's as remembered, or the thread's, one per value.")
        List<Detection> detections)
        implements Serializable {}
