package org.agentmemory.conversation.boundary;

import jakarta.annotation.Resource;
import jakarta.ejb.LocalBean;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.conversation.control.ConversationDeletions;
import org.agentmemory.conversation.control.ConversationSelection;
import org.agentmemory.platform.validation.InputRules;

/**
 * The bulk deletes of conversations (issue 34 item 5): an agent's, a user's with an agent, and idle ones (the
 * enforcement of {@code memory.conversation.idle-ttl-seconds}). Each runs without a transaction of its own and deletes
 * batch after batch of {@value ConversationMemoryOperations#DELETE_BATCH} conversations, each batch in a transaction
 * of its own ({@link #deleteBatch}), so that a large agent never makes one huge transaction and a failure keeps what
 * committed.
 */
@Stateless
@LocalBean
public class ConversationDeletionBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Resource
    SessionContext context;

    /** See {@link ConversationMemoryOperations#deleteChatbotConversations}. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteChatbotConversations(String tenantId, String chatbotId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("chatbotId", chatbotId);
        return deleteAll(ConversationSelection.ofChatbot(tenantId, chatbotId), false);
    }

    /** See {@link ConversationMemoryOperations#deleteUserConversations}. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteUserConversations(String tenantId, String chatbotId, String userId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("chatbotId", chatbotId);
        InputRules.checkId("userId", userId);
        return deleteAll(ConversationSelection.ofUser(tenantId, chatbotId, userId), false);
    }

    /** See {@link ConversationMemoryOperations#deleteIdleConversations}. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteIdleConversations(String tenantId, Instant idleBefore) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        if (idleBefore == null) {
            throw new InvalidInputException(
                    "idleBefore",
                    "required",
                    "idleBefore is required: an ISO-8601 instant such as 2026-12-01T00:00:00Z; conversations last"
                            + " written before it are deleted.");
        }
        return deleteAll(ConversationSelection.idleBefore(tenantId, idleBefore), true);
    }

    /**
     * The idle sweep of every tenant: deletes, tenant by tenant, the conversations last written before
     * {@code idleBefore}.
     *
     * @param idleBefore now minus the idle time to live
     * @return how many conversations were deleted
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteIdleEverywhere(Instant idleBefore) {
        long deleted = 0;
        for (String tenantId : new ConversationDeletions(em).tenantsWithIdle(idleBefore)) {
            deleted += deleteAll(ConversationSelection.idleBefore(tenantId, idleBefore), true);
        }
        return deleted;
    }

    /**
     * One batch of a bulk delete, in a transaction of its own.
     *
     * @param selection  the conversations
     * @param afterId    only ids above this
     * @param skipLocked whether rows another transaction holds are skipped rather than waited for
     * @return what the batch did
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public ConversationDeletions.Batch deleteBatch(ConversationSelection selection, long afterId, boolean skipLocked) {
        return new ConversationDeletions(em)
                .deleteNext(selection, afterId, ConversationMemoryOperations.DELETE_BATCH, skipLocked);
    }

    /**
     * Purges deleted messages' search-index documents again, in a transaction of its own: see
     * {@link ConversationDeletions#purge}.
     *
     * @param messageIds the messages of a committed batch
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void purgeAgain(java.util.List<Long> messageIds) {
        new ConversationDeletions(em).purge(messageIds);
    }

    private long deleteAll(ConversationSelection selection, boolean skipLocked) {
        ConversationDeletionBean self = context.getBusinessObject(ConversationDeletionBean.class);
        long deleted = 0;
        long afterId = 0;
        while (true) {
            ConversationDeletions.Batch batch = self.deleteBatch(selection, afterId, skipLocked);
            if (batch.done()) {
                return deleted;
            }
            if (!batch.messageIds().isEmpty()) {
                self.purgeAgain(batch.messageIds());
            }
            deleted += batch.deleted();
            afterId = batch.lastId();
        }
    }
}
