package org.agentmemory.api.answer;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A question and the answer an agent gave, stored by turn id (the reference's {@code AnswerMemory}).
 *
 * @param agentId  the agent
 * @param turnId   the turn the interaction belongs to
 * @param question the question
 * @param answer   the answer: any JSON value (text, object, list …)
 * @param storedAt when it was (last) stored, UTC
 */
@Schema(description = "A question and the answer an agent gave, stored by turn id.")
public record StoredAnswer(
        @Schema(description = "The agent.") String agentId,

        @Schema(description = "The turn the interaction belongs to.")
        String turnId,

        @Schema(description = "The question; \"\" when none was stored.")
        String question,

        @Schema(description = "The answer: any JSON value (text, number, boolean, object, list or null).")
        Object answer,

        @Schema(description = "When it was last stored, ISO-8601 UTC.")
        Instant storedAt)
        implements Serializable {}
