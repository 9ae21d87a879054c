package org.agentmemory.api.pii;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The outcome of a re-encryption under the current key (issue 34 item 2).
 *
 * @param rows stored messages rewritten under the current key (and pepper)
 */
@Schema(description = "The outcome of a re-encryption under the current key.")
public record Reencrypted(
        @Schema(description = "Stored messages rewritten under the current key; 0 when all were current.")
        long rows) implements Serializable {}
