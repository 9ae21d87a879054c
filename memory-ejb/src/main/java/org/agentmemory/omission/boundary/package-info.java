/**
 * Omission store services: the TTL purge timer, and the flush of the omissions a read-time compaction
 * produced. Write-time offloads go through the conversation memory bean, which holds the conversation lock
 * they need; the flush takes the same lock in a transaction of its own.
 */
package org.agentmemory.omission.boundary;
