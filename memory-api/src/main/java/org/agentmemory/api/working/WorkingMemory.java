package org.agentmemory.api.working;

import jakarta.ejb.Local;

/**
 * Local view of working memory
 * ({@code java:global/agent-memory/memory-ejb/WorkingMemoryBean!org.agentmemory.api.working.WorkingMemory}).
 */
@Local
public interface WorkingMemory extends WorkingMemoryOperations {}
