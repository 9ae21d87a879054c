package org.agentmemory.api.recall;

import jakarta.ejb.Local;

/**
 * Local view of conversation recall ({@code java:global/agent-memory/memory-ejb/ConversationRecallBean!org.agentmemory.api.recall.ConversationRecall}).
 */
@Local
public interface ConversationRecall extends ConversationRecallOperations {}
