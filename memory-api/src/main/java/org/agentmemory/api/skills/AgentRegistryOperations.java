package org.agentmemory.api.skills;

import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.conversation.Page;

/**
 * The agents of a tenant and the cross-domain router (spec §9.5; issue 35 item 3). The registry is per tenant: routing
 * never looks at another tenant's agents. A registration's domain description is embedded when it is written (with the
 * episodes' embedding model) and the vector is kept with it; a changed description, or a change of model, embeds it
 * again. A description the model cannot embed is kept, reported with {@code embedded = false}, and skipped by the
 * router.
 *
 * <p>Routing (spec §9.5 {@code find_relevant_agents}, with the decay the reference exposed but never applied): the
 * query's vector is compared with every other registered agent's description vector of the tenant; agents with cosine
 * ≥ {@code memory.router.similarity-threshold} are kept, at most {@code memory.router.max-relevant-agents} of them,
 * ordered by relevance = cosine × {@code memory.router.cross-domain-decay}. Each then contributes ⌈relevance × the
 * section's warning count⌉ of its failure warnings, at most {@code memory.router.warnings-per-agent}: an other
 * agent's warning is worth {@code relevance} of the asking agent's own.
 */
public interface AgentRegistryOperations {

    /** Longest domain description, code points. */
    int MAX_DESCRIPTION = 4_000;

    /**
     * Registers an agent, or changes its registration.
     *
     * @param tenantId          the caller's tenant
     * @param agentId           the agent
     * @param domainDescription what the agent covers, 1–{@value #MAX_DESCRIPTION} code points without NUL, or
     *                          {@code null} for an agent that takes no part in routing
     * @param skillAutoExtract  whether the dream cycle extracts its skills, or {@code null} for the deployment default
     * @return the registration
     * @throws InvalidInputException when the agent id or the description breaks a rule
     */
    @RequiresRole(RequiresRole.ADMIN)
    AgentRegistration registerAgent(String tenantId, String agentId, String domainDescription, Boolean skillAutoExtract)
            throws InvalidInputException;

    /**
     * @param tenantId the caller's tenant
     * @param agentId  the agent
     * @return its registration
     * @throws NotFoundException     when the agent is not registered in the tenant
     * @throws InvalidInputException when the agent id breaks the id rules
     */
    @RequiresRole(RequiresRole.READER)
    AgentRegistration getAgent(String tenantId, String agentId) throws NotFoundException, InvalidInputException;

    /**
     * @param tenantId the caller's tenant
     * @param limit    1 to 1,000
     * @param cursor   {@code nextCursor} of the previous page, or {@code null}
     * @return the tenant's registrations, by agent id
     * @throws InvalidInputException when the limit or cursor breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    Page<AgentRegistration> listAgents(String tenantId, int limit, String cursor) throws InvalidInputException;

    /**
     * Removes a registration (the agent's skills, episodes and brain stay).
     *
     * @param tenantId the caller's tenant
     * @param agentId  the agent
     * @throws NotFoundException     when the agent is not registered in the tenant
     * @throws InvalidInputException when the agent id breaks the id rules
     */
    @RequiresRole(RequiresRole.ADMIN)
    void removeAgent(String tenantId, String agentId) throws NotFoundException, InvalidInputException;

    /**
     * The other agents a query is routed to (see the class comment).
     *
     * @param tenantId    the caller's tenant
     * @param agentId     the asking agent (never among the answers)
     * @param query       the query; blank routes nowhere
     * @param maxWarnings the warning count of the asking agent's section, 1 to 1,000 (spec §9.1
     *                    {@code episodic_max_warnings}: 3)
     * @return the relevant agents, highest relevance first; empty when none or when the query cannot be embedded
     * @throws InvalidInputException when the agent id or {@code maxWarnings} breaks a rule, or the query holds a NUL
     */
    @RequiresRole(RequiresRole.READER)
    List<RelevantAgent> relevantAgents(String tenantId, String agentId, String query, int maxWarnings)
            throws InvalidInputException;
}
