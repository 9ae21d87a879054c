package org.agentmemory.api.recall;

import java.io.Serializable;
import java.time.Instant;

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
public record ReindexStatus(String state, long entitiesTotal, long documentsAdded, Instant startedAt,
        Instant finishedAt, String message) implements Serializable {

    /** @return whether a run is in progress */
    public boolean running() {
        return "running".equals(state);
    }
}
