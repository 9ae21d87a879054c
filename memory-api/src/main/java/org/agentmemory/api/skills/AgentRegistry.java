package org.agentmemory.api.skills;

import jakarta.ejb.Local;

/**
 * Local view of the agent registry
 * ({@code java:global/agent-memory/memory-ejb/AgentRegistryBean!org.agentmemory.api.skills.AgentRegistry}).
 */
@Local
public interface AgentRegistry extends AgentRegistryOperations {}
