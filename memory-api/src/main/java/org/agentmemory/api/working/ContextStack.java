package org.agentmemory.api.working;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A session's context stack.
 *
 * @param frames the frames from the bottom (pushed first) to the top (the current context); empty when none
 */
@Schema(description = "A session's context stack, from the bottom to the top (the current context).")
public record ContextStack(
        @Schema(description = "The frames, bottom first; the last is the current context. Empty when none.")
        List<ContextFrame> frames)
        implements Serializable {}
