package org.agentmemory.api.answer;

import jakarta.ejb.Remote;

/** Remote view of answer memory ({@code ejb:agent-memory/memory-ejb/AnswerMemoryBean!org.agentmemory.api.answer.AnswerMemoryRemote}). */
@Remote
public interface AnswerMemoryRemote extends AnswerMemoryOperations {}
