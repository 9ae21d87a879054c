package org.agentmemory.answer.boundary;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.agentmemory.answer.entity.Answer;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.answer.AnswerMemory;
import org.agentmemory.api.answer.AnswerMemoryRemote;
import org.agentmemory.api.answer.StoredAnswer;
import org.agentmemory.platform.json.CanonicalJson;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.validation.InputRules;

/**
 * Answer memory: an agent's question/answer pairs by turn id, persisted and shared by every server.
 * Storing the same turn again replaces it (as the reference's dict assignment does); concurrent stores of a
 * new turn are serialized by the unique key, the loser's transaction failing rather than duplicating.
 */
@jakarta.annotation.security.DeclareRoles({
    RequiresRole.READER,
    RequiresRole.WRITER,
    RequiresRole.ADMIN,
    RequiresRole.OPERATOR
})
@jakarta.annotation.security.PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@jakarta.interceptor.Interceptors({CallerScope.class, org.agentmemory.platform.load.ForegroundRequests.class})
public class AnswerMemoryBean implements AnswerMemory, AnswerMemoryRemote {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Override
    public StoredAnswer storeInteraction(String tenantId, String agentId, String turnId, String question, Object answer)
            throws InvalidInputException {
        check(tenantId, agentId, turnId);
        InputRules.checkText("question", question, InputRules.Controls.NO_NUL);
        String json;
        try {
            json = CanonicalJson.write(answer);
        } catch (RuntimeException e) {
            throw new InvalidInputException(
                    "answer",
                    "json",
                    "answer must be a JSON value (text, number, boolean," + " object, list or null): "
                            + e.getMessage());
        }
        Answer row = find(tenantId, agentId, turnId);
        boolean isNew = row == null;
        if (isNew) {
            row = new Answer(tenantId, agentId, turnId);
        }
        row.store(question == null ? "" : question, json, Instant.now().truncatedTo(ChronoUnit.MICROS));
        if (isNew) {
            em.persist(row);
        }
        return toRecord(row);
    }

    @Override
    public StoredAnswer get(String tenantId, String agentId, String turnId)
            throws NotFoundException, InvalidInputException {
        check(tenantId, agentId, turnId);
        Answer row = find(tenantId, agentId, turnId);
        if (row == null) {
            throw new NotFoundException(
                    "answer",
                    turnId,
                    "No interaction is stored for agent '" + agentId + "' and turn '" + turnId + "'.");
        }
        return toRecord(row);
    }

    private static void check(String tenantId, String agentId, String turnId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("agentId", agentId);
        InputRules.checkId("turnId", turnId);
    }

    private Answer find(String tenantId, String agentId, String turnId) {
        List<Answer> found = em.createQuery(
                        "SELECT a FROM Answer a WHERE a.tenantId = :t AND a.agentId = :a" + " AND a.turnId = :turn",
                        Answer.class)
                .setParameter("t", tenantId)
                .setParameter("a", agentId)
                .setParameter("turn", turnId)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    private static StoredAnswer toRecord(Answer row) {
        Object value;
        try {
            value = CanonicalJson.parse(row.getAnswer());
        } catch (IOException e) {
            throw new IllegalStateException("Stored answer is not JSON: " + e.getMessage(), e);
        }
        return new StoredAnswer(row.getAgentId(), row.getTurnId(), row.getQuestion(), value, row.getStoredAt());
    }
}
