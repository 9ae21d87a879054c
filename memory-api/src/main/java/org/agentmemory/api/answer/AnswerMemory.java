package org.agentmemory.api.answer;

import jakarta.ejb.Local;

/** Local view of answer memory ({@code java:global/agent-memory/memory-ejb/AnswerMemoryBean!org.agentmemory.api.answer.AnswerMemory}). */
@Local
public interface AnswerMemory extends AnswerMemoryOperations {}
