package org.agentmemory.conversation.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.VersionConflictException;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.ConversationMetadata;
import org.agentmemory.conversation.control.ConversationLookup;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.control.ConversationWriter;
import org.agentmemory.conversation.control.SummaryStore;
import org.agentmemory.conversation.control.TurnMapper;
import org.agentmemory.conversation.control.TurnMessages;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.omission.boundary.OmissionStoreBean;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.validation.InputRules;

/**
 * Creates conversations, replaces and merges their metadata (optimistic versions), clears their turns and deletes
 * them, each with its omissions, Stage 2 summary and search entries (spec §11).
 */
@Stateless
@LocalBean
public class ConversationEditorBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    ConversationCreatorBean creator;

    @EJB
    MetadataMergeBean merger;

    @EJB
    OmissionStoreBean omissions;

    @Inject
    Settings settings;

    private ConversationStore store() {
        return new ConversationStore(em);
    }

    /** See {@link ConversationMemoryOperations#createHistory}. */
    public ConversationHistory createHistory(ConversationKey key, Map<String, Object> metadata)
            throws InvalidInputException {
        InputRules.checkKey(key);
        InputRules.checkJsonObject("metadata", metadata);
        Conversation c = store().findByKey(key, false);
        if (c == null) {
            ConversationCreatorBean.through(creator).createIfAbsent(key, metadata);
            c = store().findByKey(key, false);
        }
        return TurnMapper.history(ConversationWriter.requireCreated(c, key), store().turns(c, 0, Integer.MAX_VALUE));
    }

    /** See {@link ConversationMemoryOperations#updateMetadata}. */
    public ConversationMetadata updateMetadata(
            String tenantId, long conversationId, Map<String, Object> metadata, long expectedVersion)
            throws NotFoundException, VersionConflictException, InvalidInputException {
        if (metadata == null) {
            throw new InvalidInputException(
                    "metadata", "required", "metadata is required: a JSON object ({} to empty it).");
        }
        InputRules.checkJsonObject("metadata", metadata);
        Conversation c = ConversationLookup.byId(store(), tenantId, conversationId, true);
        if (expectedVersion >= 0 && expectedVersion != c.getVersion()) {
            throw new VersionConflictException(
                    expectedVersion,
                    c.getVersion(),
                    "Conversation " + conversationId
                            + " is at version " + c.getVersion() + ", not " + expectedVersion
                            + "; another writer changed it. Read it again and re-apply your change.");
        }
        c.setMetadata(metadata, ConversationWriter.now());
        em.flush();
        return new ConversationMetadata(c.getId(), c.getMetadata(), c.getVersion(), c.getUpdatedAt());
    }

    /**
     * See {@link ConversationMemoryOperations#mergeMetadata}: each attempt reads and writes under the row lock in a
     * transaction of its own ({@link MetadataMergeBean}); an attempt that finds another version backs off briefly and
     * tries again, at most {@code memory.metadata.merge-attempts} times.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public ConversationMetadata mergeMetadata(String tenantId, long conversationId, Map<String, Object> patch)
            throws NotFoundException, VersionConflictException, InvalidInputException {
        if (patch == null) {
            throw new InvalidInputException("patch", "required", "The merge patch is required: a JSON object.");
        }
        InputRules.checkJsonObject("patch", patch);
        ConversationLookup.byId(store(), tenantId, conversationId, false);
        int attempts = settings.metadataMergeAttempts();
        for (int attempt = 1; attempt <= attempts; attempt++) {
            ConversationMetadata merged = merger.tryMerge(tenantId, conversationId, patch);
            if (merged != null) {
                return merged;
            }
            backOff(attempt);
        }
        long current = ConversationLookup.byId(store(), tenantId, conversationId, false)
                .getVersion();
        throw new VersionConflictException(
                -1,
                current,
                "Conversation " + conversationId + ": the metadata merge lost" + " to concurrent writers " + attempts
                        + " times (memory.metadata.merge-attempts); try again.");
    }

    /** Short randomized pause before re-reading, so competing writers spread out. */
    private static void backOff(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 2L + 3L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** See {@link ConversationMemoryOperations#clearHistory}. */
    public long clearHistory(String tenantId, long conversationId) throws NotFoundException {
        Conversation c = ConversationLookup.byId(store(), tenantId, conversationId, true);
        omissions.clear(c.getTenantId(), c.getId());
        TurnMessages.purgeConversation(em, c.getId());
        // The summary covers turns about to go (issue 35 item 4); deleting the conversation cascades instead.
        new SummaryStore(em).delete(c.getTenantId(), c.getId());
        return store().clear(c, ConversationWriter.now());
    }

    /** See {@link ConversationMemoryOperations#deleteHistory}. */
    public boolean deleteHistory(String tenantId, long conversationId) {
        Conversation c = store().find(tenantId, conversationId, true);
        if (c == null) {
            return false;
        }
        TurnMessages.purgeConversation(em, c.getId());
        return store().delete(tenantId, conversationId);
    }
}
