package org.agentmemory.api.erasure;

import jakarta.ejb.Remote;

/** Remote view of erasure ({@code ejb:agent-memory/memory-ejb/SubjectErasureBean!org.agentmemory.api.erasure.SubjectErasureRemote}). */
@Remote
public interface SubjectErasureRemote extends SubjectErasureOperations {}
