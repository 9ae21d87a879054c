package org.agentmemory.pii.control;

/**
 * A PII thread's identity: threads are scoped to a user of a tenant (issue 34 item 1).
 *
 * @param tenantId the tenant
 * @param userId   the user
 * @param threadId the thread
 */
public record ThreadKey(String tenantId, String userId, String threadId) {}
