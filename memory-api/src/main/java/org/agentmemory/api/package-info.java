/**
 * What every caller of the memory service shares: application exceptions and, in sub-packages, the
 * business interfaces and serializable transfer records of each component.
 *
 * <p>Decisions: this jar has no dependency but the Jakarta EE API (provided), so other EARs and remote
 * clients can put it on their class path; transfer objects are immutable records, never entities; every
 * business failure is a checked {@link org.agentmemory.api.MemoryException} that names the bad value.
 */
package org.agentmemory.api;
