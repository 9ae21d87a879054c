package org.agentmemory.api.episodic;

import jakarta.ejb.Local;

/**
 * Local view of episodic memory ({@code java:global/agent-memory/memory-ejb/EpisodicMemoryBean!org.agentmemory.api.episodic.EpisodicMemory}).
 * Operations: {@link EpisodicMemoryOperations}.
 */
@Local
public interface EpisodicMemory extends EpisodicMemoryOperations {}
