package org.agentmemory.api.brain;

import java.time.Instant;
import org.agentmemory.api.MemoryException;

/**
 * An agent's dream cycle is already running: a server holds its lease (issue 33 item 3). REST answers 409. Try again
 * after the cycle ends; a lease older than twice the interval is stale and taken over.
 */
public class CycleRunningException extends MemoryException {

    private static final long serialVersionUID = 1L;

    private final Instant runningSince;

    /**
     * @param agentId      the agent
     * @param runningSince when the running cycle took the lease
     */
    public CycleRunningException(String agentId, Instant runningSince) {
        super("The dream cycle of agent " + agentId + " is already running (since " + runningSince + ").");
        this.runningSince = runningSince;
    }

    /** @return when the running cycle took its lease */
    public Instant runningSince() {
        return runningSince;
    }

    @Override
    public String kind() {
        return "cycle-running";
    }
}
