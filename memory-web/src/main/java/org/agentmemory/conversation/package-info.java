/**
 * REST resources of conversation memory (spec §1, §6, §11): histories, turns, per-agent listings, JSONL
 * import and export. Each resource delegates to {@link org.agentmemory.api.conversation.ConversationMemory}.
 */
package org.agentmemory.conversation;
