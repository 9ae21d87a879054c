package org.agentmemory.api.cluster;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The lease row of one once-per-cluster task, shared by every server.
 *
 * @param task           the task's name, e.g. {@code omission-purge}
 * @param runCount       runs started by every server together
 * @param holder         the server that took the lease last, or {@code null} when none ever did
 * @param running        whether that server holds the lease now (its run has not finished and the lease has not
 *                       expired)
 * @param leaseUntil     when the current lease expires, or {@code null} when none is held
 * @param lastStartedAt  when the last run started, or {@code null}
 * @param lastFinishedAt when the last finished run finished, or {@code null}
 * @param lastRows       rows the last finished run changed, or {@code null} when the task does not count rows
 * @param lastResult     the last finished run's outcome: {@code ok}, or {@code failed: } and the failure; or
 *                       {@code null}
 */
@Schema(description = "The lease row of one once-per-cluster housekeeping task, shared by every server.")
public record HousekeepingTask(
        @Schema(description = "The task's name, e.g. omission-purge.")
        String task,

        @Schema(description = "Runs started by every server together.")
        long runCount,

        @Schema(description = "The server that took the lease last.", nullable = true)
        String holder,

        @Schema(
                description =
                        "Whether that server holds the lease now (its run has not finished, the lease not expired).")
        boolean running,

        @Schema(description = "When the current lease expires, ISO-8601 UTC; null when none is held.", nullable = true)
        Instant leaseUntil,

        @Schema(description = "When the last run started, ISO-8601 UTC.", nullable = true)
        Instant lastStartedAt,

        @Schema(description = "When the last finished run finished, ISO-8601 UTC.", nullable = true)
        Instant lastFinishedAt,

        @Schema(
                description = "Rows the last finished run changed; null when the task does not count rows.",
                nullable = true)
        Long lastRows,

        @Schema(description = "The last finished run's outcome: ok, or failed: and the failure.", nullable = true)
        String lastResult)
        implements Serializable {}
