package org.agentmemory.api.audit;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.conversation.Page;

/**
 * The audit trail (issue 32 item 5): an append-only table of security-relevant operations (administration, imports,
 * exports, deletions, failed authentications aggregated per minute), each with time, tenant, caller, operation, target
 * ids and outcome, never message content. Rows older than {@code memory.audit.retention-days} are deleted daily.
 */
public interface AuditTrailOperations {

    /** Tenant and caller of events without a trusted token. */
    String NO_TENANT = "-";

    /** Longest stored target, in characters; a longer one is cut and ends with {@code …}. */
    int MAX_TARGET_LENGTH = 1024;

    /**
     * Appends one event in its own transaction: an audit row is written even when the audited operation's transaction
     * rolled back, and a failing audit write is logged, never thrown at the caller.
     *
     * @param tenantId  the caller's tenant; never {@code null}
     * @param caller    the caller's subject; {@code null} is stored as {@value #NO_TENANT}
     * @param operation what was done, e.g. {@code conversation.delete}; never {@code null}
     * @param target    ids as {@code name=value} pairs, or {@code null}; cut at {@value #MAX_TARGET_LENGTH} characters
     * @param outcome   the HTTP status answered
     */
    void record(String tenantId, String caller, String operation, String target, int outcome);

    /**
     * Counts one failed authentication; the counts are written as one {@code authentication.failed} row per minute
     * (within about a minute, and at shutdown).
     */
    void failedAuthentication();

    /**
     * A page of events, newest first.
     *
     * @param tenantId only this tenant's events, or {@code null} for every tenant's (the operator's view)
     * @param limit    1 to 1,000
     * @param cursor   {@code nextCursor} of the previous page, or {@code null}
     * @return the page
     * @throws InvalidInputException when the limit is out of range or the cursor is not one of ours
     */
    Page<AuditEvent> list(String tenantId, int limit, String cursor) throws InvalidInputException;
}
