package org.agentmemory.erasure.boundary;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.security.Principal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.audit.AuditTrail;
import org.agentmemory.api.erasure.ErasureReceipt;
import org.agentmemory.api.erasure.SubjectErasure;
import org.agentmemory.api.erasure.SubjectErasureRemote;
import org.agentmemory.conversation.boundary.ConversationEraserBean;
import org.agentmemory.erasure.control.ErasureTally;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.validation.InputRules;

/**
 * Right to erasure (issue 34 item 4; {@link SubjectErasure}). Runs no transaction of its own: every store is erased in
 * bounded transactions ({@link ErasureStepsBean}), so other users' writes are never blocked behind a long one, and the
 * receipt counts only what committed. Episodes go first, then conversations in batches of {@value #CONVERSATIONS},
 * then PII threads, then the audit trail; each step also removes the brain evidence that names what it deleted.
 */
@jakarta.annotation.security.DeclareRoles({
    RequiresRole.READER,
    RequiresRole.WRITER,
    RequiresRole.ADMIN,
    RequiresRole.OPERATOR
})
@jakarta.annotation.security.PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
@jakarta.interceptor.Interceptors({CallerScope.class, org.agentmemory.platform.load.ForegroundRequests.class})
public class SubjectErasureBean implements SubjectErasure, SubjectErasureRemote {

    private static final Logger LOG = Logger.getLogger(SubjectErasureBean.class.getName());

    /** Episodes deleted per transaction. */
    static final int EPISODES = 500;

    /** Conversations deleted per transaction. */
    static final int CONVERSATIONS = 20;

    @EJB
    ErasureStepsBean steps;

    @EJB
    ConversationEraserBean conversations;

    @EJB
    AuditTrail audit;

    @Resource
    SessionContext context;

    @Override
    public ErasureReceipt eraseSubject(String tenantId, String userId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("userId", userId);
        String receiptId = UUID.randomUUID().toString();
        Instant started = now();
        ErasureTally tally = new ErasureTally();
        while (steps.episodes(tenantId, userId, EPISODES, tally, now()) == EPISODES) {
            // next batch
        }
        long after = 0;
        List<Long> ids;
        while (!(ids = conversations.conversationIds(tenantId, userId, after, CONVERSATIONS)).isEmpty()) {
            steps.purgeAgain(steps.conversations(tenantId, userId, ids, tally, now()));
            after = ids.get(ids.size() - 1);
        }
        steps.pii(tenantId, userId, tally);
        steps.audit(tenantId, userId, tally);
        ErasureReceipt receipt = tally.receipt(receiptId, tenantId, userId, started, now());
        Principal caller = context.getCallerPrincipal();
        if (!CallerScope.unauthenticated(caller)) {
            // A remote EJB caller; the REST layer records its own caller's event.
            audit.record(tenantId, caller.getName(), "subject.erase", target(receipt, tally), 200);
        }
        LOG.info(() -> "Erasure " + receiptId + " in tenant " + tenantId + ": " + tally.counts());
        return receipt;
    }

    /** @return the audit target of an erasure: its receipt id and counts, never the subject */
    static String target(ErasureReceipt receipt, ErasureTally tally) {
        return "receipt=" + receipt.receiptId() + " " + tally.counts();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
