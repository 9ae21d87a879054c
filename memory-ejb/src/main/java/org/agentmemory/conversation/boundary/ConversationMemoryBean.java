package org.agentmemory.conversation.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.interceptor.Interceptors;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.VersionConflictException;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.CompactionState;
import org.agentmemory.api.conversation.AiMessageTurn;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ChatbotStats;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.ConversationMetadata;
import org.agentmemory.api.conversation.ConversationSummary;
import org.agentmemory.api.conversation.ImportLine;
import org.agentmemory.api.conversation.ImportReport;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.conversation.TurnPage;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.omission.boundary.OmissionStoreBean;
import org.agentmemory.platform.load.ForegroundRequests;
import org.agentmemory.platform.security.CallerScope;

/**
 * Conversation memory (spec §1, §6, §11) behind the local and remote views
 * ({@code java:global/agent-memory/memory-ejb/ConversationMemoryBean!…}): each operation goes to the bean with that
 * job, in the transaction this bean starts (or, for the writes marked so, none): {@link ConversationReaderBean}
 * reads histories and sessions, {@link TurnWriterBean} writes turns, {@link ConversationImportBean} imports,
 * {@link ConversationEditorBean} creates, edits, clears and deletes, {@link ConversationDeletionBean} deletes in bulk
 * (an agent's, a user's, idle conversations), and the omission component's
 * {@link OmissionStoreBean} reads omitted content once the conversation is known to exist in the tenant. Every call
 * counts as foreground load ({@link ForegroundRequests}).
 */
@jakarta.annotation.security.DeclareRoles({
    RequiresRole.READER,
    RequiresRole.WRITER,
    RequiresRole.ADMIN,
    RequiresRole.OPERATOR
})
@jakarta.annotation.security.PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@LocalBean
@Interceptors({CallerScope.class, ForegroundRequests.class})
public class ConversationMemoryBean implements ConversationMemory, ConversationMemoryRemote {

    @EJB
    ConversationReaderBean reader;

    @EJB
    TurnWriterBean writer;

    @EJB
    ConversationImportBean importer;

    @EJB
    ConversationEditorBean editor;

    @EJB
    OmissionStoreBean omissions;

    @EJB
    ConversationDeletionBean deletions;

    @Override
    public ConversationHistory createHistory(ConversationKey key, Map<String, Object> metadata)
            throws InvalidInputException {
        return editor.createHistory(key, metadata);
    }

    @Override
    public ConversationHistory getHistory(ConversationKey key) throws NotFoundException, InvalidInputException {
        return reader.getHistory(key);
    }

    @Override
    public ConversationHistory getHistoryById(String tenantId, long conversationId) throws NotFoundException {
        return reader.getHistoryById(tenantId, conversationId);
    }

    @Override
    public ConversationSummary getSummary(String tenantId, long conversationId) throws NotFoundException {
        return reader.getSummary(tenantId, conversationId);
    }

    @Override
    public TurnPage getTurns(String tenantId, long conversationId, long afterSequence, int limit)
            throws NotFoundException, InvalidInputException {
        return reader.getTurns(tenantId, conversationId, afterSequence, limit);
    }

    @Override
    public TurnRecord getTurn(String tenantId, long conversationId, long sequence)
            throws NotFoundException, InvalidInputException {
        return reader.getTurn(tenantId, conversationId, sequence);
    }

    @Override
    public ConversationMetadata getMetadata(String tenantId, long conversationId) throws NotFoundException {
        return reader.getMetadata(tenantId, conversationId);
    }

    @Override
    public ConversationMetadata updateMetadata(
            String tenantId, long conversationId, Map<String, Object> metadata, long expectedVersion)
            throws NotFoundException, VersionConflictException, InvalidInputException {
        return editor.updateMetadata(tenantId, conversationId, metadata, expectedVersion);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public AppendedTurn addTurn(ConversationKey key, TurnRecord turn) throws InvalidInputException {
        return writer.addTurn(key, turn, null);
    }

    /** In the caller's transaction when it has one; otherwise group-committed ({@link TurnWriterBean}). */
    @Override
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public AppendedTurn addTurn(ConversationKey key, TurnRecord turn, CompactionCommit commit)
            throws InvalidInputException {
        return writer.addTurn(key, turn, commit);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public AppendedTurn addTurnFromAiMessage(ConversationKey key, AiMessageTurn message) throws InvalidInputException {
        return writer.addTurnFromAiMessage(key, message);
    }

    @Override
    public CompactionState reportUsage(ConversationKey key, long promptEstimate, long providerPromptTokens)
            throws InvalidInputException {
        return writer.reportUsage(key, promptEstimate, providerPromptTokens);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public ConversationMetadata mergeMetadata(String tenantId, long conversationId, Map<String, Object> patch)
            throws NotFoundException, VersionConflictException, InvalidInputException {
        return editor.mergeMetadata(tenantId, conversationId, patch);
    }

    @Override
    public List<AppendedTurn> addTurns(ConversationKey key, List<TurnRecord> turns) throws InvalidInputException {
        return writer.addTurns(key, turns);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public ImportReport importTurns(String tenantId, List<ImportLine> lines) throws InvalidInputException {
        return importer.importTurns(tenantId, lines, false);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public ImportReport importTurns(String tenantId, List<ImportLine> lines, boolean deferIndexing)
            throws InvalidInputException {
        return importer.importTurns(tenantId, lines, deferIndexing);
    }

    @Override
    public int awaitDeferredIndexing() {
        return importer.awaitDeferredIndexing();
    }

    @Override
    public long clearHistory(String tenantId, long conversationId) throws NotFoundException {
        return editor.clearHistory(tenantId, conversationId);
    }

    @Override
    public boolean deleteHistory(String tenantId, long conversationId) {
        return editor.deleteHistory(tenantId, conversationId);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteChatbotConversations(String tenantId, String chatbotId) throws InvalidInputException {
        return deletions.deleteChatbotConversations(tenantId, chatbotId);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteUserConversations(String tenantId, String chatbotId, String userId) throws InvalidInputException {
        return deletions.deleteUserConversations(tenantId, chatbotId, userId);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteIdleConversations(String tenantId, java.time.Instant idleBefore) throws InvalidInputException {
        return deletions.deleteIdleConversations(tenantId, idleBefore);
    }

    @Override
    public long findConversationId(ConversationKey key) throws NotFoundException, InvalidInputException {
        return reader.findConversationId(key);
    }

    @Override
    public Page<ConversationSummary> listSessions(
            String tenantId, String userId, String chatbotId, int limit, String cursor) throws InvalidInputException {
        return reader.listSessions(tenantId, userId, chatbotId, limit, cursor);
    }

    @Override
    public Page<ConversationSummary> listSessionsByChatbot(
            String tenantId, String chatbotId, String userId, int limit, String cursor) throws InvalidInputException {
        return reader.listSessionsByChatbot(tenantId, chatbotId, userId, limit, cursor);
    }

    @Override
    public ChatbotStats chatbotStats(String tenantId, String chatbotId) throws InvalidInputException {
        return reader.chatbotStats(tenantId, chatbotId);
    }

    @Override
    public Page<String> chatbotUsers(String tenantId, String chatbotId, int limit, String cursor)
            throws InvalidInputException {
        return reader.chatbotUsers(tenantId, chatbotId, limit, cursor);
    }

    @Override
    public String getOmission(String tenantId, long conversationId, String contentId) throws NotFoundException {
        reader.checkExists(tenantId, conversationId);
        return omissions.read(tenantId, conversationId, contentId);
    }

    @Override
    public Map<String, Boolean> probeOmissions(String tenantId, long conversationId, List<String> contentIds)
            throws NotFoundException, InvalidInputException {
        if (contentIds != null
                && contentIds.size() <= org.agentmemory.api.conversation.ConversationMemoryOperations.MAX_PAGE_SIZE) {
            reader.checkExists(tenantId, conversationId);
        }
        return omissions.probe(tenantId, conversationId, contentIds);
    }

    @Override
    public List<String> listOmissions(String tenantId, long conversationId, String turnId) throws NotFoundException {
        reader.checkExists(tenantId, conversationId);
        return omissions.list(tenantId, conversationId, turnId);
    }
}
