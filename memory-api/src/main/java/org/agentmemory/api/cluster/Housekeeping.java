package org.agentmemory.api.cluster;

import jakarta.ejb.Local;

/**
 * Local view of the housekeeping status
 * ({@code java:global/agent-memory/memory-ejb/HousekeepingBean!org.agentmemory.api.cluster.Housekeeping}). No remote
 * view: it is read over REST ({@code GET /api/v1/admin/housekeeping}) by {@code memory-operator}.
 */
@Local
public interface Housekeeping extends HousekeepingOperations {}
