package org.agentmemory.api.cluster;

import org.agentmemory.api.RequiresRole;

/**
 * What the housekeeping timers did (issue 36 item 2, decision 0018): per once-per-cluster task, the lease row every
 * server shares (runs of every server, the last holder and its times); and the counters of the answering server.
 * Read-only; meant for operators and for tests that count a task's runs across servers.
 */
public interface HousekeepingOperations {

    /**
     * @return the answering server's id, the lease row of every task some server has tried to run (by task name),
     *         and the answering server's own counters since it started
     */
    @RequiresRole(RequiresRole.OPERATOR)
    HousekeepingStatus status();
}
