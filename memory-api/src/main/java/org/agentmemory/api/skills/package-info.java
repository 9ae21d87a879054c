/**
 * Skills and the agents of a tenant (issue 35 items 2 and 3; spec §9.1, §9.3, §9.5): a registry of skills per agent
 * (name, description, instructions, tools, examples, source) with hybrid retrieval by query, the skills section of an
 * assembled context, skills extracted from successful episodes by the dream cycle, and a registry of agents with the
 * domain each covers, from which the cross-domain router picks the other agents whose failure warnings a query should
 * also see.
 */
package org.agentmemory.api.skills;
