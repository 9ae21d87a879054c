/**
 * Health procedures for orchestrators: readiness means the memory database answers.
 *
 * <p>Decision: this package lives in its own jar in the EAR's {@code lib/}, because WildFly registers only
 * the health checks that the EAR-level bean manager sees (not those of the EJB or web module).
 */
package org.agentmemory.health;
