package org.agentmemory.api.context;

import jakarta.ejb.Local;

/**
 * Local view of the read path, for components in the same server (another EAR looks it up as
 * {@code java:global/agent-memory/memory-ejb/ContextMemoryBean!org.agentmemory.api.context.ContextMemory}).
 * Operations: {@link ContextMemoryOperations}.
 */
@Local
public interface ContextMemory extends ContextMemoryOperations {}
