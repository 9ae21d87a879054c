package org.agentmemory.api.working;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What clearing a session's working memory deleted (seed 003 {@code clear}); zeros when it held nothing.
 *
 * @param items         items deleted, of both tiers
 * @param contextFrames frames of the context stack dropped
 */
@Schema(description = "What clearing a session's working memory deleted; zeros when it held nothing.")
public record ClearedSession(
        @Schema(description = "Items deleted, of both tiers.")
        long items,

        @Schema(description = "Frames of the context stack dropped.")
        int contextFrames)
        implements Serializable {}
