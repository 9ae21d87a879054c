package org.agentmemory.api.brain;

import jakarta.ejb.Local;

/** Local view of dream cycles ({@code java:global/agent-memory/memory-ejb/DreamCyclesBean!org.agentmemory.api.brain.DreamCycles}). */
@Local
public interface DreamCycles extends DreamCyclesOperations {}
