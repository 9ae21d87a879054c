package org.agentmemory.answer.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * Erases answers by turn id (issue 34 item 4): answers have no user, so an erased subject's answers are those stored
 * under the turn ids of its conversations for the same agent.
 */
@Stateless
@LocalBean
public class AnswerEraserBean {

    /** Turn ids per delete statement. */
    private static final int CHUNK = 500;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /**
     * @param tenantId the tenant
     * @param agentId  the agent (chatbot)
     * @param turnIds  the turn ids
     * @return how many answers were deleted
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public long erase(String tenantId, String agentId, List<String> turnIds) {
        long deleted = 0;
        for (int from = 0; from < turnIds.size(); from += CHUNK) {
            deleted += em.createQuery(
                            "DELETE FROM Answer a WHERE a.tenantId = :t AND a.agentId = :a AND a.turnId IN :turns")
                    .setParameter("t", tenantId)
                    .setParameter("a", agentId)
                    .setParameter("turns", turnIds.subList(from, Math.min(turnIds.size(), from + CHUNK)))
                    .executeUpdate();
        }
        return deleted;
    }
}
