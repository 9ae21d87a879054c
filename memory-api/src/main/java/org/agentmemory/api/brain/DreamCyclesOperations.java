package org.agentmemory.api.brain;

import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.conversation.Page;

/**
 * The dream cycle of an agent (issue 33 items 2, 3 and 6; spec §12.2, §12.5): consolidating its eligible episodes
 * into pages of its brain, on a timer or now, with a report per cycle.
 */
public interface DreamCyclesOperations {

    /**
     * Runs the agent's cycle now, on the calling thread, and returns its report. An aborted cycle (a failed archive)
     * is a report with {@code aborted}, not an exception.
     *
     * @param tenantId the tenant
     * @param agentId  the agent
     * @return the report
     * @throws CycleRunningException when a server holds the agent's lease (a cycle is running)
     * @throws InvalidInputException when the agent id breaks the id rules
     */
    @RequiresRole(RequiresRole.WRITER)
    DreamCycleReport runNow(String tenantId, String agentId) throws CycleRunningException, InvalidInputException;

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @return the agent's dream state; an agent never scheduled nor run shows the defaults, disabled
     * @throws InvalidInputException when the agent id breaks the id rules
     */
    @RequiresRole(RequiresRole.READER)
    DreamSchedule schedule(String tenantId, String agentId) throws InvalidInputException;

    /**
     * Enables or disables the agent's timer and sets its interval. Enabling a schedule that was never due makes it
     * due one interval from now (spec §12.5 step 3); the servers' timers pick the change up within the
     * synchronisation period.
     *
     * @param tenantId        the tenant
     * @param agentId         the agent
     * @param enabled         whether a timer runs the cycle
     * @param intervalSeconds the interval, seconds, 1 to 31,536,000; {@code null} keeps the current (or the default)
     * @return the dream state after the change
     * @throws InvalidInputException when the agent id or the interval breaks a rule
     */
    @RequiresRole(RequiresRole.ADMIN)
    DreamSchedule configure(String tenantId, String agentId, boolean enabled, Long intervalSeconds)
            throws InvalidInputException;

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param limit    1 to 1,000
     * @param cursor   {@code nextCursor} of the previous page, or {@code null}
     * @return the agent's cycle reports, newest first
     * @throws InvalidInputException when the agent id, limit or cursor breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    Page<DreamCycleReport> reports(String tenantId, String agentId, int limit, String cursor)
            throws InvalidInputException;

    /**
     * @param tenantId the tenant
     * @return the tenant's enabled schedules, by agent id (at most 1,000)
     */
    @RequiresRole(RequiresRole.READER)
    List<DreamSchedule> enabledSchedules(String tenantId);
}
