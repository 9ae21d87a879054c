package org.agentmemory.api.pii;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A text with each detected value replaced by the thread's placeholder of that value (issue 34 item 3).
 *
 * @param threadId   the thread
 * @param messageId  the message the detections were remembered under
 * @param text       the anonymized text
 * @param detections what was replaced, with offsets in the original text and their placeholders
 */
@Schema(description = "A text with each detected value replaced by the thread's placeholder of that value.")
public record AnonymizedText(
        @Schema(description = "The thread.") String threadId,

        @Schema(description = "The message the detections were remembered under.")
        String messageId,

        @Schema(description = "The text with placeholders such as <<PERSON_1>> in place of the values.")
        String text,

        @Schema(description = "What was replaced: offsets in the original text, and placeholders.")
        List<Detection> detections)
        implements Serializable {}
