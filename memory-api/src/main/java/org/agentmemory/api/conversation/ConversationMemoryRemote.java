package org.agentmemory.api.conversation;

import jakarta.ejb.Remote;

/**
 * Remote view of conversation memory; arguments and results are serializable records passed by value.
 * A remote Java client looks it up as
 * {@code ejb:agent-memory/memory-ejb/ConversationMemoryBean!org.agentmemory.api.conversation.ConversationMemoryRemote}.
 * Operations: {@link ConversationMemoryOperations}.
 */
@Remote
public interface ConversationMemoryRemote extends ConversationMemoryOperations {}
