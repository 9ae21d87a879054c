package org.agentmemory.api.conversation;

import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.VersionConflictException;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.CompactionState;

/**
 * Conversation memory: histories keyed by (tenant, chatbot, user, session) made of turns (spec §1, §6, §11).
 *
 * <p>Shared by the local view {@link ConversationMemory} and the remote view
 * {@link ConversationMemoryRemote}. Every method validates its arguments and throws
 * {@link InvalidInputException} naming the field and the rule before anything is written. Lengths are
 * counted in Unicode code points. Times are UTC with microsecond precision.
 */
public interface ConversationMemoryOperations {

    /** Largest page size accepted by the listing methods. */
    int MAX_PAGE_SIZE = 1000;

    /** Largest number of turns accepted by one {@link #addTurns} call. */
    int MAX_BATCH_TURNS = 1000;

    /**
     * Creates an empty history, or returns the existing one unchanged (spec §11 {@code create_history}).
     *
     * @param key      the conversation key; ids must be 1–128 code points without control characters
     * @param metadata initial metadata (JSON object), or {@code null} for {@code {}}; ignored when the
     *                 history already exists
     * @return the history
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    ConversationHistory createHistory(ConversationKey key, Map<String, Object> metadata) throws InvalidInputException;

    /**
     * Reads a history with all its turns in sequence order.
     *
     * @param key the conversation key
     * @return the history
     * @throws NotFoundException     when no such conversation exists in the tenant
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    ConversationHistory getHistory(ConversationKey key) throws NotFoundException, InvalidInputException;

    /**
     * Reads a history by the service's conversation id.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the id returned by earlier calls
     * @return the history
     * @throws NotFoundException when it does not exist in the tenant
     */
    @RequiresRole(RequiresRole.READER)
    ConversationHistory getHistoryById(String tenantId, long conversationId) throws NotFoundException;

    /**
     * Reads a conversation's key, times and turn count without its turns.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @return the summary
     * @throws NotFoundException when it does not exist in the tenant
     */
    @RequiresRole(RequiresRole.READER)
    ConversationSummary getSummary(String tenantId, long conversationId) throws NotFoundException;

    /**
     * Reads a slice of a conversation's turns, for streaming.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @param afterSequence  return turns with a greater sequence (0 = from the start)
     * @param limit          1 to {@value #MAX_PAGE_SIZE}
     * @return the slice
     * @throws NotFoundException     when the conversation does not exist in the tenant
     * @throws InvalidInputException when {@code limit} or {@code afterSequence} is out of range
     */
    @RequiresRole(RequiresRole.READER)
    TurnPage getTurns(String tenantId, long conversationId, long afterSequence, int limit)
            throws NotFoundException, InvalidInputException;

    /**
     * Reads one turn by its sequence number: the turn that a 201 from adding it names in {@code Location}.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @param sequence       the turn's sequence number, 1-based, assigned at write time
     * @return the turn
     * @throws NotFoundException     when the conversation does not exist in the tenant, or holds no turn with this
     *                               sequence (never written, or cleared: sequences are not reused)
     * @throws InvalidInputException when {@code sequence} is below 1
     */
    @RequiresRole(RequiresRole.READER)
    TurnRecord getTurn(String tenantId, long conversationId, long sequence)
            throws NotFoundException, InvalidInputException;

    /**
     * Reads a history's metadata and its version.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @return metadata and version
     * @throws NotFoundException when it does not exist in the tenant
     */
    @RequiresRole(RequiresRole.READER)
    ConversationMetadata getMetadata(String tenantId, long conversationId) throws NotFoundException;

    /**
     * Replaces a history's metadata, compare-and-set on its version (spec §1.4, §11 {@code update_history}).
     *
     * @param tenantId        the caller's tenant
     * @param conversationId  the conversation
     * @param metadata        the new metadata object; never {@code null}
     * @param expectedVersion the version the caller read, or {@code -1} to overwrite unconditionally
     * @return the metadata after the change, with its new version
     * @throws NotFoundException        when it does not exist
     * @throws VersionConflictException when {@code expectedVersion} is not the stored version
     * @throws InvalidInputException    when {@code metadata} is {@code null} or holds invalid text
     */
    @RequiresRole(RequiresRole.WRITER)
    ConversationMetadata updateMetadata(
            String tenantId, long conversationId, Map<String, Object> metadata, long expectedVersion)
            throws NotFoundException, VersionConflictException, InvalidInputException;

    /**
     * Adds one turn: validates, normalizes (spec §2), counts tokens (spec §3), stores it with the next
     * sequence number, in one transaction. Creates the conversation when it does not exist. Idempotent on
     * the turn id: adding an existing id writes nothing and returns the stored turn with
     * {@code created == false}. Safe under any number of concurrent callers on the same conversation.
     *
     * @param key  the conversation key
     * @param turn the turn; see {@link TurnRecord} for the fields the service ignores and assigns
     * @return the stored turn
     * @throws InvalidInputException when a field breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    AppendedTurn addTurn(ConversationKey key, TurnRecord turn) throws InvalidInputException;

    /**
     * Adds one turn as {@link #addTurn(ConversationKey, TurnRecord)} does and, in the same transaction, folds
     * the round's compaction commit into the conversation's persisted state {@code metadata["compaction"]}
     * (spec §4 {@code apply_commit}, §5.4 steps 8–9): the calibration takes the sample (commit's prompt
     * estimate, provider prompt tokens from {@code turn.metadata["usage"]["input_tokens"]}, else
     * {@code ["prompt_tokens"]}), the boundary becomes the commit's when it is not {@code null}, the Stage-2
     * flag is ORed in. When the flag turns from false to true, a
     * {@link org.agentmemory.api.compaction.Stage2CompactionNeeded} event is fired (once per conversation).
     *
     * <p>The commit is folded only when the turn is new: a turn id that already exists writes nothing, so a
     * retried call never counts its calibration sample twice.
     *
     * @param key    the conversation key
     * @param turn   the turn
     * @param commit the commit of the round that produced the turn (from the context operation), or
     *               {@code null} to leave the compaction state untouched (spec §4: partial saves)
     * @return the stored turn
     * @throws InvalidInputException when a field of the turn or the commit breaks a rule (the commit's
     *                               boundary must be a valid turn id; its telemetry must not be negative)
     */
    @RequiresRole(RequiresRole.WRITER)
    AppendedTurn addTurn(ConversationKey key, TurnRecord turn, CompactionCommit commit) throws InvalidInputException;

    /**
     * Builds a turn from a model's reply (spec §1.1 {@code from_ai_message}) and adds it with its commit.
     *
     * @param key     the conversation key
     * @param message the reply and the round's data
     * @return the stored turn
     * @throws InvalidInputException when a field breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    AppendedTurn addTurnFromAiMessage(ConversationKey key, AiMessageTurn message) throws InvalidInputException;

    /**
     * Folds one provider usage sample into the calibration state without adding a turn (spec §4
     * {@code report_usage}, used on partial saves and errors). A no-op when the history does not exist or the
     * sample is degenerate (an estimate or provider count ≤ 0).
     *
     * @param key                  the conversation key
     * @param promptEstimate       the prompt the service estimated, tokens
     * @param providerPromptTokens what the provider billed for it, tokens
     * @return the state after the sample, or {@code null} when there is no such history
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.WRITER)
    CompactionState reportUsage(ConversationKey key, long promptEstimate, long providerPromptTokens)
            throws InvalidInputException;

    /**
     * Merges a JSON merge patch (RFC 7396: objects merge recursively, {@code null} removes a key) into a
     * history's metadata without losing concurrent writers' keys: it reads the history under its row lock (so
     * concurrent merges and turn writes wait for each other rather than fail), merges, and writes with a
     * compare-and-set on the version; should that still find another version, it re-reads and tries again, up to
     * {@code memory.metadata.merge-attempts} times.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @param patch          the patch (a JSON object); never {@code null}
     * @return the metadata after the merge, with its new version
     * @throws NotFoundException        when it does not exist
     * @throws VersionConflictException when every attempt lost to a concurrent writer
     * @throws InvalidInputException    when the patch is {@code null} or holds invalid text
     */
    @RequiresRole(RequiresRole.WRITER)
    ConversationMetadata mergeMetadata(String tenantId, long conversationId, Map<String, Object> patch)
            throws NotFoundException, VersionConflictException, InvalidInputException;

    /**
     * Adds turns in the given order in one transaction: all are stored (or already existed) or none is.
     *
     * @param key   the conversation key
     * @param turns 1 to {@value #MAX_BATCH_TURNS} turns
     * @return one result per input turn, in order
     * @throws InvalidInputException when any turn breaks a rule (the field path names its index)
     */
    @RequiresRole(RequiresRole.WRITER)
    List<AppendedTurn> addTurns(ConversationKey key, List<TurnRecord> turns) throws InvalidInputException;

    /**
     * Imports turns of possibly many conversations (JSONL import). Lines that break a rule are reported and
     * skipped; the others are written in their given order, creating conversations as needed. The call runs
     * outside any caller transaction: missing conversations are created one short transaction each, then all
     * turns are written in one. If the database rejects that write, each line is written on its own, the lines it
     * still rejects are reported (with an error id for the server log), and a conversation created only for
     * rejected lines is removed again; {@code conversationsCreated} counts those that remain.
     *
     * @param tenantId the caller's tenant (overrides any tenant in the lines)
     * @param lines    at most {@value #MAX_BATCH_TURNS} lines
     * @return counts and per-line errors
     * @throws InvalidInputException when there are too many lines
     */
    @RequiresRole(RequiresRole.WRITER)
    ImportReport importTurns(String tenantId, List<ImportLine> lines) throws InvalidInputException;

    /**
     * As {@link #importTurns(String, List)}, for a bulk import made of many calls. With {@code deferIndexing}
     * the call returns as soon as its rows are committed, and the search index writes of its messages run in
     * the background, overlapping the caller's next batch; {@link #awaitDeferredIndexing()} waits for them.
     * Without it the messages are searchable by full text when the call returns, as with every other write.
     *
     * @param tenantId      the caller's tenant (overrides any tenant in the lines)
     * @param lines         at most {@value #MAX_BATCH_TURNS} lines
     * @param deferIndexing whether to return before the index writes are applied
     * @return counts and per-line errors
     * @throws InvalidInputException when there are too many lines
     */
    @RequiresRole(RequiresRole.WRITER)
    ImportReport importTurns(String tenantId, List<ImportLine> lines, boolean deferIndexing)
            throws InvalidInputException;

    /**
     * Waits, at most {@value #DEFERRED_INDEXING_WAIT_MS} ms, until every index write deferred by
     * {@link #importTurns(String, List, boolean)} before this call is applied; the messages of those imports
     * are then searchable by full text (vectors follow from the background embedder, as always).
     *
     * @return how many deferred index writes failed or did not finish in time: 0 normally; their rows are
     *         stored, and the mass reindex ({@code POST /admin/reindex}) restores their index entries
     */
    @RequiresRole(RequiresRole.WRITER)
    int awaitDeferredIndexing();

    /** The longest wait of {@link #awaitDeferredIndexing()}, in milliseconds. */
    long DEFERRED_INDEXING_WAIT_MS = 300_000;

    /**
     * Removes every turn of a history, keeps the history and its metadata (spec §11 {@code clear_history}).
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @return the number of turns removed
     * @throws NotFoundException when it does not exist
     */
    @RequiresRole(RequiresRole.WRITER)
    long clearHistory(String tenantId, long conversationId) throws NotFoundException;

    /**
     * Deletes a history and everything stored under it (spec §11 {@code delete_history}).
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @return {@code true} if it existed
     */
    @RequiresRole(RequiresRole.WRITER)
    boolean deleteHistory(String tenantId, long conversationId);

    /** Conversations deleted per transaction by the bulk deletes below (issue 34 item 5). */
    int DELETE_BATCH = 100;

    /**
     * Deletes every conversation of one agent in the tenant, of every user, with everything stored under each (turns,
     * tool invocations, omissions, searchable messages with their vectors and search-index documents), in
     * transactions of at most {@value #DELETE_BATCH} conversations each (issue 34 item 5). Content-identical
     * omissions of other conversations are untouched: omissions belong to one conversation. A failure part-way
     * leaves the batches already committed deleted; calling again deletes the rest.
     *
     * @param tenantId  the caller's tenant
     * @param chatbotId the agent; required (the default agent, which has no id, is not bulk-deleted)
     * @return how many conversations were deleted, 0 when the agent has none
     * @throws InvalidInputException when {@code chatbotId} is missing or breaks the id rules
     */
    @RequiresRole(RequiresRole.ADMIN)
    long deleteChatbotConversations(String tenantId, String chatbotId) throws InvalidInputException;

    /**
     * As {@link #deleteChatbotConversations}, for one user's conversations with the agent only (issue 34 item 5).
     *
     * @param tenantId  the caller's tenant
     * @param chatbotId the agent; required
     * @param userId    the user; required
     * @return how many conversations were deleted, 0 when there are none
     * @throws InvalidInputException when {@code chatbotId} or {@code userId} is missing or breaks the id rules
     */
    @RequiresRole(RequiresRole.WRITER)
    long deleteUserConversations(String tenantId, String chatbotId, String userId) throws InvalidInputException;

    /**
     * Deletes the tenant's conversations written last before an instant, as {@link #deleteChatbotConversations}
     * deletes (batches of {@value #DELETE_BATCH}): the enforcement of {@code memory.conversation.idle-ttl-seconds}
     * (issue 34 item 5), which a timer runs every 10 minutes with {@code now − ttl}. A conversation's last write is
     * its {@code updatedAt}, refreshed by every turn, metadata change and clearing; a conversation written while the
     * delete runs is re-checked under its row lock and kept. Conversations another server is deleting at the same
     * moment are skipped, not waited for.
     *
     * @param tenantId   the caller's tenant
     * @param idleBefore conversations last written strictly before this instant (UTC) are deleted; required
     * @return how many conversations were deleted
     * @throws InvalidInputException when {@code idleBefore} is missing
     */
    @RequiresRole(RequiresRole.ADMIN)
    long deleteIdleConversations(String tenantId, java.time.Instant idleBefore) throws InvalidInputException;

    /**
     * Looks up a conversation id by key.
     *
     * @param key the key
     * @return the id
     * @throws NotFoundException     when no such conversation exists
     * @throws InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    long findConversationId(ConversationKey key) throws NotFoundException, InvalidInputException;

    /**
     * Lists a user's conversations, newest first (spec §11 {@code list_sessions}).
     *
     * @param tenantId  the caller's tenant
     * @param userId    the user
     * @param chatbotId only this agent's conversations, or {@code null} for every agent's
     * @param limit     1 to {@value #MAX_PAGE_SIZE}
     * @param cursor    {@code null} for the first page, else {@link Page#nextCursor()} of the previous one
     * @return one page
     * @throws InvalidInputException when the limit is out of range or the cursor is not one of ours
     */
    @RequiresRole(RequiresRole.READER)
    Page<ConversationSummary> listSessions(String tenantId, String userId, String chatbotId, int limit, String cursor)
            throws InvalidInputException;

    /**
     * Lists an agent's conversations, newest first (spec §11 {@code list_sessions_by_chatbot}).
     *
     * @param tenantId  the caller's tenant
     * @param chatbotId the agent, or {@code null} for the default agent
     * @param userId    only this user's, or {@code null} for every user's
     * @param limit     1 to {@value #MAX_PAGE_SIZE}
     * @param cursor    as in {@link #listSessions}
     * @return one page
     * @throws InvalidInputException when the limit is out of range or the cursor is not one of ours
     */
    @RequiresRole(RequiresRole.READER)
    Page<ConversationSummary> listSessionsByChatbot(
            String tenantId, String chatbotId, String userId, int limit, String cursor) throws InvalidInputException;

    /**
     * Statistics of one agent (spec §11 {@code get_chatbot_stats}).
     *
     * @param tenantId  the caller's tenant
     * @param chatbotId the agent, or {@code null} for the default agent
     * @return the statistics (zeros when the agent has no conversation)
     * @throws InvalidInputException when the chatbot id breaks a rule
     */
    @RequiresRole(RequiresRole.ADMIN)
    ChatbotStats chatbotStats(String tenantId, String chatbotId) throws InvalidInputException;

    /**
     * The users who have conversations with an agent, in ascending id order (spec §11 {@code get_chatbot_users}).
     *
     * @param tenantId  the caller's tenant
     * @param chatbotId the agent, or {@code null} for the default agent
     * @param limit     1 to {@value #MAX_PAGE_SIZE}
     * @param cursor    as in {@link #listSessions}
     * @return one page of user ids
     * @throws InvalidInputException when the limit is out of range or the cursor is not one of ours
     */
    @RequiresRole(RequiresRole.READER)
    Page<String> chatbotUsers(String tenantId, String chatbotId, int limit, String cursor) throws InvalidInputException;

    /**
     * Reads omitted content by id (spec §7.2 {@code get}), scoped to the conversation.
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @param contentId      {@code om_} + 16 hex digits
     * @return the exact stored content
     * @throws NotFoundException when the conversation does not exist, or the content is unknown in it or expired
     *                           (the message is spec §7.2's {@code EXPIRED_MESSAGE})
     */
    @RequiresRole(RequiresRole.READER)
    String getOmission(String tenantId, long conversationId, String contentId) throws NotFoundException;

    /**
     * Checks which omissions are retrievable, without loading content (spec §7.2 {@code probe_many}).
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @param contentIds     the ids to check (at most 1000)
     * @return each id → {@code true} when retrievable now; never "unknown"
     * @throws NotFoundException     when the conversation does not exist
     * @throws InvalidInputException when more than 1000 ids are given
     */
    @RequiresRole(RequiresRole.READER)
    Map<String, Boolean> probeOmissions(String tenantId, long conversationId, List<String> contentIds)
            throws NotFoundException, InvalidInputException;

    /**
     * The content ids a turn's offload or pruning produced, in insertion order (spec §7.2 {@code list_by_turn}).
     *
     * @param tenantId       the caller's tenant
     * @param conversationId the conversation
     * @param turnId         the turn
     * @return the ids of retrievable content
     * @throws NotFoundException when the conversation does not exist
     */
    @RequiresRole(RequiresRole.READER)
    List<String> listOmissions(String tenantId, long conversationId, String turnId) throws NotFoundException;
}
