/**
 * Skills' and agents' session beans (issue 35 items 2 and 3): the skills registry with hybrid search, the registry of
 * agents with their domains, the cross-domain router, skill extraction for the dream cycle, and the two context
 * section providers (relevant skills; other agents' failure warnings).
 *
 * <p>Decisions: a skill's and a domain description's vector is computed when they are written and kept with the row
 * (no model call on the read path but the query's own); the router reads only the asking tenant's registrations and
 * shows another agent's warnings scoped to the asking conversation's user, as the agent's own (spec §13 #6); a
 * failure of the router, of one agent's description or of one agent's warnings is logged and leaves the rest of the
 * section intact; extraction upserts by the skill's name and never touches a skill a caller wrote.
 */
package org.agentmemory.skills.boundary;
