package org.agentmemory.conversation.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.conversation.ChatbotStats;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.ConversationMetadata;
import org.agentmemory.api.conversation.ConversationSummary;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.conversation.TurnPage;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.control.ConversationLookup;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.control.HistoryWindow;
import org.agentmemory.conversation.control.SummaryStore;
import org.agentmemory.conversation.control.TurnMapper;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.platform.paging.Cursors;
import org.agentmemory.platform.validation.InputRules;

/**
 * Reads histories and sessions (spec §11): a conversation's turns (whole, paged or one), its summary and metadata,
 * a user's or an agent's conversations, an agent's statistics and users. Every read is scoped to its tenant.
 */
@Stateless
@LocalBean
public class ConversationReaderBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    private ConversationStore store() {
        return new ConversationStore(em);
    }

    /**
     * @param tenantId       the tenant
     * @param conversationId the conversation
     * @throws NotFoundException when the tenant holds no such conversation
     */
    public void checkExists(String tenantId, long conversationId) throws NotFoundException {
        ConversationLookup.byId(store(), tenantId, conversationId, false);
    }

    /** See {@link ConversationMemoryOperations#getHistory}. */
    public ConversationHistory getHistory(ConversationKey key) throws NotFoundException, InvalidInputException {
        Conversation c = ConversationLookup.byKey(store(), key);
        return TurnMapper.history(c, store().turns(c, 0, Integer.MAX_VALUE));
    }

    /** See {@link ConversationMemoryOperations#getHistoryById}. */
    public ConversationHistory getHistoryById(String tenantId, long conversationId) throws NotFoundException {
        Conversation c = ConversationLookup.byId(store(), tenantId, conversationId, false);
        return TurnMapper.history(c, store().turns(c, 0, Integer.MAX_VALUE));
    }

    /** See {@link ConversationMemoryOperations#getSummary}. */
    public ConversationSummary getSummary(String tenantId, long conversationId) throws NotFoundException {
        return TurnMapper.summary(ConversationLookup.byId(store(), tenantId, conversationId, false));
    }

    /** See {@link ConversationMemoryOperations#getTurns}. */
    public TurnPage getTurns(String tenantId, long conversationId, long afterSequence, int limit)
            throws NotFoundException, InvalidInputException {
        Cursors.checkLimit(limit);
        if (afterSequence < 0) {
            throw new InvalidInputException(
                    "afterSequence",
                    "min",
                    "afterSequence is " + afterSequence + "; it must be 0 (from the start) or a sequence number.");
        }
        Conversation c = ConversationLookup.byId(store(), tenantId, conversationId, false);
        List<TurnRecord> turns = store().turns(c, afterSequence, limit);
        long last =
                turns.isEmpty() ? afterSequence : turns.get(turns.size() - 1).sequence();
        boolean more = turns.size() == limit && store().hasTurnsAfter(c, last);
        return new TurnPage(c.getId(), TurnMapper.key(c), turns, last, more);
    }

    /** See {@link ConversationMemoryOperations#getTurn}. */
    public TurnRecord getTurn(String tenantId, long conversationId, long sequence)
            throws NotFoundException, InvalidInputException {
        if (sequence < 1) {
            throw new InvalidInputException(
                    "sequence",
                    "min",
                    "sequence is " + sequence + "; turns are numbered from 1 in the order they were written.");
        }
        Conversation c = ConversationLookup.byId(store(), tenantId, conversationId, false);
        List<TurnRecord> turns = store().turns(c, sequence - 1, 1);
        if (turns.isEmpty() || turns.get(0).sequence() != sequence) {
            throw new NotFoundException(
                    "turn",
                    Long.toString(sequence),
                    "Conversation " + conversationId + " holds no turn with sequence " + sequence
                            + " (never written, or cleared).");
        }
        return turns.get(0);
    }

    /** See {@link ConversationMemoryOperations#getMetadata}. */
    public ConversationMetadata getMetadata(String tenantId, long conversationId) throws NotFoundException {
        Conversation c = ConversationLookup.byId(store(), tenantId, conversationId, false);
        return new ConversationMetadata(c.getId(), c.getMetadata(), c.getVersion(), c.getUpdatedAt());
    }

    /** See {@link ConversationMemoryOperations#findConversationId}. */
    public long findConversationId(ConversationKey key) throws NotFoundException, InvalidInputException {
        return ConversationLookup.byKey(store(), key).getId();
    }

    /** See {@link ConversationMemoryOperations#listSessions}. */
    public Page<ConversationSummary> listSessions(
            String tenantId, String userId, String chatbotId, int limit, String cursor) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("userId", userId);
        InputRules.checkOptionalId("chatbotId", chatbotId);
        return page(
                store().list(tenantId, userId, chatbotId != null, chatbotId, checkedIdBound(limit, cursor), limit),
                limit);
    }

    /** See {@link ConversationMemoryOperations#listSessionsByChatbot}. */
    public Page<ConversationSummary> listSessionsByChatbot(
            String tenantId, String chatbotId, String userId, int limit, String cursor) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkOptionalId("chatbotId", chatbotId);
        InputRules.checkOptionalId("userId", userId);
        return page(store().list(tenantId, userId, true, chatbotId, checkedIdBound(limit, cursor), limit), limit);
    }

    /** See {@link ConversationMemoryOperations#chatbotStats}. */
    public ChatbotStats chatbotStats(String tenantId, String chatbotId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkOptionalId("chatbotId", chatbotId);
        long[] counts = store().chatbotCounts(tenantId, chatbotId);
        double average = counts[0] == 0 ? 0.0 : (double) counts[1] / counts[0];
        return new ChatbotStats(chatbotId, counts[0], counts[1], counts[2], average);
    }

    /** See {@link ConversationMemoryOperations#chatbotUsers}. */
    public Page<String> chatbotUsers(String tenantId, String chatbotId, int limit, String cursor)
            throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkOptionalId("chatbotId", chatbotId);
        Cursors.checkLimit(limit);
        List<String> users = store().chatbotUsers(tenantId, chatbotId, Cursors.textBound(cursor), limit);
        if (users.size() > limit) {
            List<String> pageItems = users.subList(0, limit);
            return new Page<>(pageItems, Cursors.ofText(pageItems.get(limit - 1)));
        }
        return new Page<>(users, null);
    }

    /**
     * A stored conversation as other components read it.
     *
     * @param id        its id
     * @param key       its key
     * @param chatbotId its agent, or {@code null}
     * @param metadata  its metadata (a copy)
     */
    public record StoredConversation(long id, ConversationKey key, String chatbotId, Map<String, Object> metadata) {
        static StoredConversation of(Conversation c) {
            return c == null
                    ? null
                    : new StoredConversation(c.getId(), TurnMapper.key(c), c.getChatbotId(), c.getMetadata());
        }
    }

    /**
     * The part of a long history a compaction can show ({@link HistoryWindow}).
     *
     * @param turns             the turns after the window's start, in sequence order
     * @param olderCandidateIds the older candidates' turn ids, oldest first (ceiling-dropped)
     */
    public record HistoryTail(List<TurnRecord> turns, List<String> olderCandidateIds) {}

    /**
     * In the caller's transaction, or none (the context read path runs without one).
     *
     * @param key a validated key
     * @return the conversation, or {@code null} when none has the key
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public StoredConversation find(ConversationKey key) {
        return StoredConversation.of(store().findByKey(key, false));
    }

    /**
     * In the caller's transaction, or none.
     *
     * @param tenantId       the tenant, or {@code null}
     * @param conversationId the conversation
     * @return the conversation, or {@code null} when the tenant holds none with this id
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public StoredConversation find(String tenantId, long conversationId) {
        return tenantId == null ? null : StoredConversation.of(store().find(tenantId, conversationId, false));
    }

    /**
     * Loads only the part of a history a compaction can show (spec §8.5 steps 2–3, {@link HistoryWindow}), in the
     * caller's transaction or none.
     *
     * @param conversationId     a conversation found in the caller's tenant
     * @param maxTurns           the budget's ceiling
     * @param currentChatbotId   the agent asking, or {@code null}
     * @param includeOtherAgents whether other agents' turns are candidates
     * @return the tail and the older candidates
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public HistoryTail historyTail(
            long conversationId, int maxTurns, String currentChatbotId, boolean includeOtherAgents) {
        HistoryWindow.Window window = HistoryWindow.plan(
                HistoryWindow.scan(em, conversationId), maxTurns, currentChatbotId, includeOtherAgents);
        return new HistoryTail(
                store().turns(conversationId, window.afterSequence(), Integer.MAX_VALUE), window.olderCandidateIds());
    }

    /**
     * The Stage 2 summary of a conversation's earlier turns (issue 35 item 4), in the caller's transaction or none.
     *
     * @param tenantId       the tenant
     * @param conversationId a conversation found in the tenant
     * @return its summary, or {@code null} when none is stored
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public HistorySummary summary(String tenantId, long conversationId) {
        var stored = new SummaryStore(em).find(tenantId, conversationId);
        return stored == null ? null : SummaryStore.record(stored);
    }

    private static long checkedIdBound(int limit, String cursor) throws InvalidInputException {
        Cursors.checkLimit(limit);
        return Cursors.idBound(cursor);
    }

    private static Page<ConversationSummary> page(List<Conversation> rows, int limit) {
        boolean more = rows.size() > limit;
        List<Conversation> items = more ? rows.subList(0, limit) : rows;
        List<ConversationSummary> summaries = new ArrayList<>(items.size());
        for (Conversation c : items) {
            summaries.add(TurnMapper.summary(c));
        }
        return new Page<>(
                summaries, more ? Cursors.ofId(items.get(items.size() - 1).getId()) : null);
    }
}
