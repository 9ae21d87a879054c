package org.agentmemory.api.answer;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;

/**
 * Answer memory: question/answer pairs of an agent stored by turn id, persisted (the reference keeps them
 * in a process-local dict; here they survive restarts and are shared by every server).
 */
public interface AnswerMemoryOperations {

    /**
     * Stores (or replaces) the interaction of a turn.
     *
     * @param tenantId the caller's tenant
     * @param agentId  the agent (1–128 code points)
     * @param turnId   the turn id (1–128 code points); required, as in the reference
     * @param question the question, may be empty
     * @param answer   the answer: a JSON value (String, Number, Boolean, Map, List) or {@code null}
     * @return what is stored now
     * @throws InvalidInputException when an id is missing or breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    StoredAnswer storeInteraction(String tenantId, String agentId, String turnId, String question, Object answer)
            throws InvalidInputException;

    /**
     * @param tenantId the caller's tenant
     * @param agentId  the agent
     * @param turnId   the turn id
     * @return the stored interaction
     * @throws NotFoundException     when none is stored for that agent and turn
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    StoredAnswer get(String tenantId, String agentId, String turnId) throws NotFoundException, InvalidInputException;
}
