package org.agentmemory.api.pii;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A model's reply with the placeholders of one thread replaced by their values (issue 34 item 3).
 *
 * @param threadId the thread
 * @param text     the text; placeholders the thread does not know stay as they are
 * @param restored how many placeholders were replaced
 */
@Schema(description = "A text with the thread's placeholders replaced by their values.")
public record RestoredText(
        @Schema(description = "The thread.") String threadId,

        @Schema(description = "The text; placeholders unknown to the thread are left as they are.")
        String text,

        @Schema(description = "How many placeholders were replaced.")
        int restored)
        implements Serializable {}
