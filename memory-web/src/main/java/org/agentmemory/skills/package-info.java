/**
 * Skills and the agents of a tenant over REST (issue 35 items 2 and 3): an agent's skills (create, read, list, versioned
 * update, delete, hybrid search, the skills section of a context) and the registry of agents with their domain
 * descriptions and the router's answer for a query. Thin: the beans check and do the work; agent ids travel in the
 * query or body, never in the path (they may contain {@code /}).
 */
package org.agentmemory.skills;
