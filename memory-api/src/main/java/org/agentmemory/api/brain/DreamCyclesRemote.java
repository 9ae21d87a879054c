package org.agentmemory.api.brain;

import jakarta.ejb.Remote;

/** Remote view of dream cycles (pass-by-value; the caller's tenant from its identity, issue 32 item 2). */
@Remote
public interface DreamCyclesRemote extends DreamCyclesOperations {}
