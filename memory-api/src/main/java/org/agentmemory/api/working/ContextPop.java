package org.agentmemory.api.working;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What popping the context stack did (seed 003 {@code pop_context}).
 *
 * @param popped the frame removed from the top, or {@code null} when the stack was empty
 * @param frames the stack afterwards, bottom first
 */
@Schema(description = "The frame popped from the top of the context stack and the stack afterwards.")
public record ContextPop(
        @Schema(description = "The frame removed from the top; null when the stack was empty.", nullable = true)
        ContextFrame popped,

        @Schema(description = "The stack afterwards, bottom first.")
        List<ContextFrame> frames)
        implements Serializable {}
