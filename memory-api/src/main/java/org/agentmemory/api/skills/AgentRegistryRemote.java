package org.agentmemory.api.skills;

import jakarta.ejb.Remote;

/**
 * Remote view of the agent registry
 * ({@code ejb:agent-memory/memory-ejb/AgentRegistryBean!org.agentmemory.api.skills.AgentRegistryRemote}).
 */
@Remote
public interface AgentRegistryRemote extends AgentRegistryOperations {}
