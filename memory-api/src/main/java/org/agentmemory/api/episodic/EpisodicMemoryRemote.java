package org.agentmemory.api.episodic;

import jakarta.ejb.Remote;

/**
 * Remote view of episodic memory; arguments and results are serializable and passed by value
 * ({@code ejb:agent-memory/memory-ejb/EpisodicMemoryBean!org.agentmemory.api.episodic.EpisodicMemoryRemote}).
 * Operations: {@link EpisodicMemoryOperations}.
 */
@Remote
public interface EpisodicMemoryRemote extends EpisodicMemoryOperations {}
