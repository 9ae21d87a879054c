/**
 * PII threads (issue 34 items 1–3, seed 002): {@link org.agentmemory.pii.boundary.PiiMemoryBean} behind the local and
 * remote views, {@link org.agentmemory.pii.boundary.PiiStores} holding the configured store and crypto (validated at
 * start-up), {@link org.agentmemory.pii.boundary.PiiEraserBean} for right to erasure, and re-encryption in bounded
 * transactions.
 *
 * <p>Decision (0014): the in-process store is the default, so nothing personal reaches the disk unless an operator
 * chooses the durable store; a durable store without keys starts, with a security warning in the log and in readiness.
 */
package org.agentmemory.pii.boundary;
