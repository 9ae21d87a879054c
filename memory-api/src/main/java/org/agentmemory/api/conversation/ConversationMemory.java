package org.agentmemory.api.conversation;

import jakarta.ejb.Local;

/**
 * Local view of conversation memory, for components in the same server (another EAR looks it up as
 * {@code java:global/agent-memory/memory-ejb/ConversationMemoryBean!org.agentmemory.api.conversation.ConversationMemory}).
 * Operations: {@link ConversationMemoryOperations}.
 */
@Local
public interface ConversationMemory extends ConversationMemoryOperations {}
