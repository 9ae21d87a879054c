/**
 * Omission store services: the store for other components ({@code OmissionStoreBean}, in the caller's transaction)
 * and the TTL purge timer.
 *
 * <p>Decisions: omissions are scoped by the conversation's id and tenant, not by a reference to the conversation
 * entity, so this component depends on no other; the caller checks that the conversation exists and, for writes,
 * holds its row lock. Write-time offloads are stored by the conversation's turn writer in the turn's transaction.
 */
package org.agentmemory.omission.boundary;
