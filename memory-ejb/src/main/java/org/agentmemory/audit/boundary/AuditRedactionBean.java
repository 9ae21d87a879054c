package org.agentmemory.audit.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.agentmemory.audit.entity.AuditEntry;

/**
 * Removes an erased subject's id from the audit trail (issue 34 item 4): events keep their time, operation, outcome and
 * other ids, but a {@code userId=<subject>} target pair and a caller that is the subject become {@value #ERASED}.
 */
@Stateless
@LocalBean
public class AuditRedactionBean {

    /** What replaces the subject's id. */
    public static final String ERASED = "(erased)";

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /**
     * @param tenantId the tenant
     * @param userId   the subject
     * @return how many events were rewritten
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public long redact(String tenantId, String userId) {
        String pair = "userId=" + userId;
        long redacted = 0;
        for (AuditEntry entry : em.createQuery(
                        "SELECT a FROM AuditEntry a WHERE a.tenantId = :t AND (a.caller = :u"
                                + " OR LOCATE(:pair, a.target) > 0)",
                        AuditEntry.class)
                .setParameter("t", tenantId)
                .setParameter("u", userId)
                .setParameter("pair", pair)
                .getResultList()) {
            String target = withoutPair(entry.getTarget(), pair);
            String caller = userId.equals(entry.getCaller()) ? ERASED : entry.getCaller();
            if (!target.equals(entry.getTarget()) || !caller.equals(entry.getCaller())) {
                entry.redact(caller, target);
                redacted++;
            }
        }
        return redacted;
    }

    /** @return the target with every whole {@code pair} (space-separated) replaced */
    static String withoutPair(String target, String pair) {
        String[] parts = target.split(" ", -1);
        boolean changed = false;
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].equals(pair)) {
                parts[i] = "userId=" + ERASED;
                changed = true;
            }
        }
        return changed ? String.join(" ", parts) : target;
    }
}
