package org.agentmemory.api.erasure;

import jakarta.ejb.Local;

/** Local view of erasure ({@code java:global/agent-memory/memory-ejb/SubjectErasureBean!org.agentmemory.api.erasure.SubjectErasure}). */
@Local
public interface SubjectErasure extends SubjectErasureOperations {}
