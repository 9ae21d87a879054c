/**
 * What every caller of the memory service shares: application exceptions and, in sub-packages, the
 * business interfaces and serializable transfer records of each component.
 *
 * <p>Decisions: this jar has no dependency but the Jakarta EE API (provided), so other EARs and remote
 * clients can put it on their class path; transfer objects are immutable records, never entities; every
 * business failure is a checked {@link org.agentmemory.api.MemoryException} that names the bad value.
 *
 * <p>Tenants: an authenticated EJB caller (every remote client; a caller in another deployment running as a
 * logged-in user) acts in the tenant {@code memory.security.ejb.tenants} maps its principal to. Every tenant it passes
 * (a {@code tenantId} parameter, the tenant of a key, namespace or request) is replaced by that one, and each operation
 * needs the role its {@link org.agentmemory.api.RequiresRole} names, else {@code jakarta.ejb.EJBAccessException}
 * (issue 32 item 2). The tenant parameters are what the service's own REST layer passes: the tenant of the verified
 * bearer token.
 */
package org.agentmemory.api;
