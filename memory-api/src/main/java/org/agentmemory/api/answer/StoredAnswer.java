package org.agentmemory.api.answer;

import java.io.Serializable;
import java.time.Instant;

/**
 * A question and the answer an agent gave, stored by turn id (the reference's {@code AnswerMemory}).
 *
 * @param agentId  the agent
 * @param turnId   the turn the interaction belongs to
 * @param question the question
 * @param answer   the answer: any JSON value (text, object, list …)
 * @param storedAt when it was (last) stored, UTC
 */
public record StoredAnswer(String agentId, String turnId, String question, Object answer, Instant storedAt)
        implements Serializable {
}
