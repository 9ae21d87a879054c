/**
 * Working memory (issue 35 item 1, seed 003): an agent's notes for one session, kept per (tenant, agent, session) in
 * two tiers. New items enter the short-term tier, which holds a bounded number and evicts the oldest first; an item
 * read often enough, or important enough, is promoted to the long-term tier, which keeps it until it is deleted. A
 * context stack of situation frames (a task, a conversation, a tool in use) is attached to each new item and
 * re-ranks searches towards items saved in the current situation.
 */
package org.agentmemory.api.working;
