package org.agentmemory.api.pii;

import jakarta.ejb.Remote;

/** Remote view of PII threads ({@code ejb:agent-memory/memory-ejb/PiiMemoryBean!org.agentmemory.api.pii.PiiMemoryRemote}). */
@Remote
public interface PiiMemoryRemote extends PiiMemoryOperations {}
