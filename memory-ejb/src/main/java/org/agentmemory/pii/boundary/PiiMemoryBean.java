package org.agentmemory.pii.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.pii.AnonymizedText;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.Forgotten;
import org.agentmemory.api.pii.MessageRole;
import org.agentmemory.api.pii.PiiMemory;
import org.agentmemory.api.pii.PiiMemoryRemote;
import org.agentmemory.api.pii.Provenance;
import org.agentmemory.api.pii.Reencrypted;
import org.agentmemory.api.pii.RestoredText;
import org.agentmemory.api.pii.ThreadDetections;
import org.agentmemory.pii.control.PiiThreads;
import org.agentmemory.pii.control.ThreadKey;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.validation.InputRules;

/**
 * PII threads ({@link PiiMemory}; issue 34 items 1–3, seed 002): checks ids and texts, then runs {@link PiiThreads}
 * over the configured store ({@link PiiStores}) in one transaction per call. Updates of one thread run one after the
 * other: the in-process store's lock, or the durable thread's lock row, created in a transaction of its own before a
 * thread's first write ({@link PiiThreadLocksBean}) and locked until commit.
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
public class PiiMemoryBean implements PiiMemory, PiiMemoryRemote {

    /** Rows re-encrypted per transaction. */
    static final int REENCRYPT_BATCH = 500;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    PiiStores stores;

    @EJB
    PiiReencryptionBean reencryption;

    @EJB
    PiiThreadLocksBean locks;

    private PiiThreads threads(ThreadKey thread) {
        return new PiiThreads(stores.store(em, thread));
    }

    /** Before a write: the durable thread's lock row exists, committed, whoever created it. */
    private PiiThreads writing(ThreadKey thread) {
        if (stores.isDurable() && !stores.durable(em).hasThreadLock(thread)) {
            try {
                locks.create(thread);
            } catch (EJBException createdConcurrently) {
                // the unique key refused a second row: another transaction created it, which is all that is needed
            }
        }
        return threads(thread);
    }

    private static ThreadKey thread(String tenantId, String userId, String threadId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("userId", userId);
        InputRules.checkId("threadId", threadId);
        return new ThreadKey(tenantId, userId, threadId);
    }

    private static void checkText(String text) throws InvalidInputException {
        if (text == null) {
            throw new InvalidInputException("text", "required", "text is required.");
        }
        InputRules.checkText("text", text, InputRules.Controls.NO_NUL, InputRules.MAX_MESSAGE_CODE_POINTS);
    }

    @Override
    public ThreadDetections remember(
            String tenantId,
            String userId,
            String threadId,
            String messageId,
            List<Detection> detections,
            MessageRole role)
            throws InvalidInputException {
        ThreadKey thread = thread(tenantId, userId, threadId);
        InputRules.checkId("messageId", messageId);
        return writing(thread).remember(thread, messageId, detections, role == null ? MessageRole.USER : role);
    }

    @Override
    public ThreadDetections detections(String tenantId, String userId, String threadId, String messageId)
            throws InvalidInputException {
        ThreadKey thread = thread(tenantId, userId, threadId);
        InputRules.checkOptionalId("messageId", messageId);
        return threads(thread).detections(thread, messageId);
    }

    @Override
    public Provenance provenance(String tenantId, String userId, String threadId) throws InvalidInputException {
        ThreadKey thread = thread(tenantId, userId, threadId);
        return threads(thread).provenance(thread);
    }

    @Override
    public Forgotten forget(String tenantId, String userId, String threadId) throws InvalidInputException {
        ThreadKey thread = thread(tenantId, userId, threadId);
        return threads(thread).forget(thread);
    }

    @Override
    public AnonymizedText anonymize(
            String tenantId,
            String userId,
            String threadId,
            String messageId,
            String text,
            List<Detection> detections,
            MessageRole role)
            throws InvalidInputException {
        ThreadKey thread = thread(tenantId, userId, threadId);
        InputRules.checkOptionalId("messageId", messageId);
        checkText(text);
        return writing(thread).anonymize(thread, messageId, text, detections, role == null ? MessageRole.USER : role);
    }

    @Override
    public RestoredText deanonymize(String tenantId, String userId, String threadId, String text)
            throws InvalidInputException {
        ThreadKey thread = thread(tenantId, userId, threadId);
        checkText(text);
        return threads(thread).deanonymize(thread, text);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Reencrypted reencrypt(String tenantId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        long rows = 0;
        int batch;
        do {
            batch = reencryption.batch(tenantId, REENCRYPT_BATCH);
            rows += batch;
        } while (batch == REENCRYPT_BATCH);
        return new Reencrypted(rows);
    }
}
