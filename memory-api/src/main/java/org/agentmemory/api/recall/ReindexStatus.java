package org.agentmemory.api.recall;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Progress of the mass reindex of the search indexes (episodes and conversation messages) from the database.
 *
 * @param state          {@code idle} (never ran), {@code running}, {@code done} or {@code failed}
 * @param entitiesTotal  rows to index (known once counting finished; 0 before)
 * @param documentsAdded documents written so far
 * @param startedAt      when the last run started, or {@code null}
 * @param finishedAt     when it finished, or {@code null} while running
 * @param message        the failure's message, or {@code null}
 */
@Schema(description = "Progress of the mass reindex (or merge) of the search indexes.")
public record ReindexStatus(
        @Schema(description = "idle (never ran), running, done or failed.")
        String state,

        @Schema(description = "Rows to index, known once counting finished; 0 before, and for a merge.")
        long entitiesTotal,

        @Schema(description = "Documents written so far; 0 for a merge.")
        long documentsAdded,

        @Schema(description = "When the last run started, ISO-8601 UTC, or null when none ran.")
        Instant startedAt,

        @Schema(description = "When it finished, ISO-8601 UTC, or null while running or when none ran.")
        Instant finishedAt,

        @Schema(
                description = "A note: the failure when failed, what a finished merge did, or that a reindex waits"
                        + " for a running merge; otherwise null.")
        String message)
        implements Serializable {

    /** @return whether a run is in progress */
    public boolean running() {
        return "running".equals(state);
    }
}
