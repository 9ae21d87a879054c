package org.agentmemory.api.recall;

import jakarta.ejb.Remote;

/**
 * Remote view of conversation recall ({@code ejb:agent-memory/memory-ejb/ConversationRecallBean!org.agentmemory.api.recall.ConversationRecallRemote}).
 */
@Remote
public interface ConversationRecallRemote extends ConversationRecallOperations {}
