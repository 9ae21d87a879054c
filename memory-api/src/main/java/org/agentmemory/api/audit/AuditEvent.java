package org.agentmemory.api.audit;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One row of the audit trail (issue 32 item 5): who did what to which ids, and how it ended. Never message content.
 *
 * @param id         the row id (ascending in time); never {@code null} once stored
 * @param occurredAt when (UTC); for aggregated failed authentications the start of the minute
 * @param tenantId   the caller's tenant, or {@value AuditTrailOperations#NO_TENANT} when no token was trusted
 * @param caller     the token's subject, or {@value AuditTrailOperations#NO_TENANT} when no token was trusted
 * @param operation  what was done, e.g. {@code conversation.delete}, {@code import}, {@code reindex},
 *                   {@code authentication.failed}
 * @param target     the ids it was done to, as {@code name=value} pairs separated by spaces (at most 1,024 characters);
 *                   empty when none
 * @param outcome    the HTTP status answered (e.g. 200, 404, 401)
 * @param count      how many events the row stands for: 1, or the failed authentications of one minute
 */
@Schema(description = "One audited operation: who did what to which ids, and how it ended. Never message content.")
public record AuditEvent(
        @Schema(description = "Row id, ascending in time.") Long id,

        @Schema(description = "When (UTC); for aggregated failed authentications the start of the minute.")
        Instant occurredAt,

        @Schema(description = "The caller's tenant, or - when no token was trusted.")
        String tenantId,

        @Schema(description = "The token's subject, or - when no token was trusted.")
        String caller,

        @Schema(
                description =
                        "What was done, e.g. conversation.delete, import, export, reindex, authentication.failed.")
        String operation,

        @Schema(description = "The ids it was done to, as name=value pairs separated by spaces; empty when none.")
        String target,

        @Schema(description = "The HTTP status answered.") int outcome,

        @Schema(description = "Events the row stands for: 1, or one minute's failed authentications.")
        int count)
        implements Serializable {}
