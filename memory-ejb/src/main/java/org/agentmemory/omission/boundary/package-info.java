/**
 * Omission store services: the TTL purge timer. Reads and writes go through the conversation memory bean,
 * which holds the conversation lock they need.
 */
package org.agentmemory.omission.boundary;
