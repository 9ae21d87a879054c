/**
 * REST interface of episodic memory ({@code /api/v1/episodes}) and the agent tools of spec §10.9
 * ({@code /api/v1/tools/episodic/...}, plain-text answers a model can read).
 *
 * <p>Decisions: resources validate, convert and delegate to the {@code EpisodicMemory} bean; the tenant comes
 * from the caller, never from a body; namespaces travel in bodies or, for reads, as query parameters (ids may
 * contain '/', so never in paths); every method has the resources' fault-tolerance policy.
 */
package org.agentmemory.episodic;
