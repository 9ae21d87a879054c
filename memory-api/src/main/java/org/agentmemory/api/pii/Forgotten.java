package org.agentmemory.api.pii;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What forgetting a thread erased (seed 002 {@code Forgotten}): evidence for a right-to-erasure request. Forgetting a
 * thread that holds nothing answers zeros.
 *
 * @param messages   cached messages dropped
 * @param detections detections across those messages dropped
 */
@Schema(description = "What forgetting a thread erased; zeros when it held nothing.")
public record Forgotten(
        @Schema(description = "How many cached messages were dropped.")
        long messages,

        @Schema(description = "How many detections across those messages were dropped.")
        long detections)
        implements Serializable {}
