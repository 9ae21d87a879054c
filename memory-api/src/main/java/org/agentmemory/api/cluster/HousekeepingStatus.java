package org.agentmemory.api.cluster;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The housekeeping of the cluster as one server sees it.
 *
 * @param serverId         the answering server's id: node name and a random suffix per start
 * @param startedAt        when the answering server's counters started (its deployment)
 * @param tasks            the lease rows of the once-per-cluster tasks some server has tried to run, by task name;
 *                         never {@code null}
 * @param runsHere         housekeeping runs the answering server did since it started, by task name (the tasks it
 *                         ran at least once); never {@code null}
 * @param messagesEmbedded conversation messages the answering server's background embedder embedded (or marked as
 *                         having no vector) since it started
 */
@Schema(
        description = "The housekeeping of the cluster as the answering server sees it: the shared lease row of each"
                + " once-per-cluster task, and what this server did itself since it started.")
public record HousekeepingStatus(
        @Schema(description = "The answering server's id: its node name and a random suffix per start.")
        String serverId,

        @Schema(description = "When the answering server's counters started (its deployment), ISO-8601 UTC.")
        Instant startedAt,

        @Schema(description = "The lease row of each task some server has tried to run, by task name.")
        List<HousekeepingTask> tasks,

        @Schema(description = "Housekeeping runs this server did since it started, by task name.")
        Map<String, Long> runsHere,

        @Schema(
                description = "Conversation messages this server's background embedder embedded (or marked as having"
                        + " no vector) since it started.")
        long messagesEmbedded)
        implements Serializable {}
