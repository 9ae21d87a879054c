package org.agentmemory.api.context;

import jakarta.ejb.Remote;

/**
 * Remote view of the read path; arguments and results are serializable records passed by value. A remote Java
 * client looks it up as
 * {@code ejb:agent-memory/memory-ejb/ContextMemoryBean!org.agentmemory.api.context.ContextMemoryRemote}.
 * Operations: {@link ContextMemoryOperations}.
 */
@Remote
public interface ContextMemoryRemote extends ContextMemoryOperations {}
