package org.agentmemory.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/** Reading {@code GET /admin/reindex}. */
public final class SearchStatus {

    private SearchStatus() {}

    /**
     * @param status the body of {@code GET /admin/reindex}
     * @param after  a moment before the bulk write
     * @return whether the automatic merge after a bulk write ({@code memory.search.quiet-merge-*}) finished after it
     */
    public static boolean automaticMergeAfter(JsonNode status, Instant after) {
        return "done".equals(status.get("state").asText())
                && status.hasNonNull("message")
                && status.get("message").asText().startsWith("segments merged after")
                && status.hasNonNull("finishedAt")
                && Instant.parse(status.get("finishedAt").asText()).isAfter(after);
    }
}
