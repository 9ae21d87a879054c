package org.agentmemory.api.brain;

import jakarta.ejb.Local;

/** Local view of brain pages ({@code java:global/agent-memory/memory-ejb/BrainMemoryBean!org.agentmemory.api.brain.BrainMemory}). */
@Local
public interface BrainMemory extends BrainMemoryOperations {}
