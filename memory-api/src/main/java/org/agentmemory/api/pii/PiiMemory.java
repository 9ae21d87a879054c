package org.agentmemory.api.pii;

import jakarta.ejb.Local;

/** Local view of PII threads ({@code java:global/agent-memory/memory-ejb/PiiMemoryBean!org.agentmemory.api.pii.PiiMemory}). */
@Local
public interface PiiMemory extends PiiMemoryOperations {}
