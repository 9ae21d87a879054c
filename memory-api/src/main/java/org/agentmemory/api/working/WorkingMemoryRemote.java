package org.agentmemory.api.working;

import jakarta.ejb.Remote;

/**
 * Remote view of working memory
 * ({@code ejb:agent-memory/memory-ejb/WorkingMemoryBean!org.agentmemory.api.working.WorkingMemoryRemote}).
 */
@Remote
public interface WorkingMemoryRemote extends WorkingMemoryOperations {}
