package org.agentmemory.api.audit;

import jakarta.ejb.Local;

/**
 * Local view of the audit trail ({@code java:global/agent-memory/memory-ejb/AuditTrailBean!org.agentmemory.api.audit.AuditTrail}).
 * No remote view: the trail is read over REST by {@code memory-admin}.
 */
@Local
public interface AuditTrail extends AuditTrailOperations {}
