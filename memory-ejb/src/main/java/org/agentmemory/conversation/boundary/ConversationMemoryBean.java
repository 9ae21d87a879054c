package org.agentmemory.conversation.boundary;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.LocalBean;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.VersionConflictException;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.CompactionState;
import org.agentmemory.api.conversation.AiMessageTurn;
import org.agentmemory.api.compaction.Stage2CompactionNeeded;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ChatbotStats;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.ConversationMetadata;
import org.agentmemory.api.conversation.ConversationSummary;
import org.agentmemory.api.conversation.ImportLine;
import org.agentmemory.api.conversation.ImportReport;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.conversation.TurnPage;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.conversation.TurnState;
import org.agentmemory.compaction.control.Calibration;
import org.agentmemory.compaction.control.CompactionCommits;
import org.agentmemory.config.Settings;
import org.agentmemory.conversation.control.AiMessageTurns;
import org.agentmemory.conversation.control.ConversationIdCache;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.control.Cursors;
import org.agentmemory.conversation.control.EntityMappings;
import org.agentmemory.conversation.control.GroupCommit;
import org.agentmemory.conversation.control.InputRules;
import org.agentmemory.conversation.control.LockedConversations;
import org.agentmemory.conversation.control.PreparedTurn;
import org.agentmemory.conversation.control.StatementPipeline;
import org.agentmemory.conversation.control.TurnMapper;
import org.agentmemory.conversation.control.TurnPreparer;
import org.agentmemory.conversation.control.TurnRows;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.api.omission.Omission;
import org.agentmemory.omission.control.OmissionStore;
import org.agentmemory.recall.control.MessageIndex;

/**
 * Conversation memory (spec §1, §6, §11): the one session bean behind the local and remote views.
 *
 * <p>Writers of one conversation serialize on its row lock ({@code SELECT … FOR UPDATE}); sequence numbers
 * are assigned under that lock, so concurrent appends never lose or reorder a turn. A conversation that
 * does not exist yet is created in a separate short transaction ({@link ConversationCreatorBean}); the
 * loser of a creation race simply locks the winner's row.
 */
@Stateless
@LocalBean
@jakarta.interceptor.Interceptors(org.agentmemory.recall.boundary.ForegroundRequests.class)
public class ConversationMemoryBean implements ConversationMemory, ConversationMemoryRemote {

    private static final Logger LOG = Logger.getLogger(ConversationMemoryBean.class.getName());

    /** The metadata key of the calibration state (spec §1.4: the only compaction state ever persisted). */
    public static final String COMPACTION_KEY = "compaction";

    /** Spec §7.2 {@code EXPIRED_MESSAGE}, with the content id for {@code %s}. */
    public static final String EXPIRED_MESSAGE =
            "Omitted content %s is unknown or may have expired \u2014 re-run the tool to regenerate it.";

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    ConversationCreatorBean creator;

    @Resource
    SessionContext context;

    @Resource
    jakarta.transaction.TransactionSynchronizationRegistry transactions;

    @EJB
    MetadataMergeBean merger;

    @EJB
    org.agentmemory.schema.DatabaseStatisticsBean statistics;

    @Inject
    Settings settings;

    @Inject
    org.agentmemory.search.DeferredIndexing deferredIndexing;

    @Inject
    Event<Stage2CompactionNeeded> stage2Events;

    private ConversationStore store() {
        return new ConversationStore(em);
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    @Override
    public ConversationHistory createHistory(ConversationKey key, Map<String, Object> metadata) throws InvalidInputException {
        InputRules.checkKey(key);
        InputRules.checkJsonObject("metadata", metadata);
        Conversation c = store().findByKey(key, false);
        if (c == null) {
            createQuietly(key, metadata);
            c = store().findByKey(key, false);
        }
        return TurnMapper.history(requireCreated(c, key), store().turns(c, 0, Integer.MAX_VALUE));
    }

    @Override
    public ConversationHistory getHistory(ConversationKey key) throws NotFoundException, InvalidInputException {
        Conversation c = existing(key);
        return TurnMapper.history(c, store().turns(c, 0, Integer.MAX_VALUE));
    }

    @Override
    public ConversationHistory getHistoryById(String tenantId, long conversationId) throws NotFoundException {
        Conversation c = existing(tenantId, conversationId, false);
        return TurnMapper.history(c, store().turns(c, 0, Integer.MAX_VALUE));
    }

    @Override
    public ConversationSummary getSummary(String tenantId, long conversationId) throws NotFoundException {
        return TurnMapper.summary(existing(tenantId, conversationId, false));
    }

    @Override
    public TurnPage getTurns(String tenantId, long conversationId, long afterSequence, int limit)
            throws NotFoundException, InvalidInputException {
        Cursors.checkLimit(limit);
        if (afterSequence < 0) {
            throw new InvalidInputException("afterSequence", "min",
                    "afterSequence is " + afterSequence + "; it must be 0 (from the start) or a sequence number.");
        }
        Conversation c = existing(tenantId, conversationId, false);
        List<TurnRecord> turns = store().turns(c, afterSequence, limit);
        long last = turns.isEmpty() ? afterSequence : turns.get(turns.size() - 1).sequence();
        boolean more = turns.size() == limit && store().hasTurnsAfter(c, last);
        return new TurnPage(c.getId(), TurnMapper.key(c), turns, last, more);
    }

    @Override
    public TurnRecord getTurn(String tenantId, long conversationId, long sequence)
            throws NotFoundException, InvalidInputException {
        if (sequence < 1) {
            throw new InvalidInputException("sequence", "min", "sequence is " + sequence
                    + "; turns are numbered from 1 in the order they were written.");
        }
        Conversation c = existing(tenantId, conversationId, false);
        List<TurnRecord> turns = store().turns(c, sequence - 1, 1);
        if (turns.isEmpty() || turns.get(0).sequence() != sequence) {
            throw new NotFoundException("turn", Long.toString(sequence), "Conversation " + conversationId
                    + " holds no turn with sequence " + sequence + " (never written, or cleared).");
        }
        return turns.get(0);
    }

    @Override
    public ConversationMetadata getMetadata(String tenantId, long conversationId) throws NotFoundException {
        Conversation c = existing(tenantId, conversationId, false);
        return new ConversationMetadata(c.getId(), c.getMetadata(), c.getVersion(), c.getUpdatedAt());
    }

    @Override
    public ConversationMetadata updateMetadata(String tenantId, long conversationId, Map<String, Object> metadata,
            long expectedVersion) throws NotFoundException, VersionConflictException, InvalidInputException {
        if (metadata == null) {
            throw new InvalidInputException("metadata", "required", "metadata is required: a JSON object ({} to empty it).");
        }
        InputRules.checkJsonObject("metadata", metadata);
        Conversation c = existing(tenantId, conversationId, true);
        if (expectedVersion >= 0 && expectedVersion != c.getVersion()) {
            throw new VersionConflictException(expectedVersion, c.getVersion(), "Conversation " + conversationId
                    + " is at version " + c.getVersion() + ", not " + expectedVersion
                    + "; another writer changed it. Read it again and re-apply your change.");
        }
        c.setMetadata(metadata, now());
        em.flush();
        return new ConversationMetadata(c.getId(), c.getMetadata(), c.getVersion(), c.getUpdatedAt());
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public AppendedTurn addTurn(ConversationKey key, TurnRecord turn) throws InvalidInputException {
        return addTurn(key, turn, null);
    }

    /**
     * The turn and the folded compaction state are written in one transaction under the conversation's row
     * lock, so the Stage-2 flip is seen by exactly one writer; the event reaches observers after the commit.
     *
     * <p>In the caller's transaction when it has one. Otherwise concurrent calls are group-committed
     * ({@link GroupCommit}): calls that arrive while a write is in progress are written together, up to
     * {@value #GROUP_COMMIT_MAX} turns in one transaction, which takes every row lock in ascending id order in one
     * statement ({@link #lockByKeys}) and runs one query for all turn ids (on PostgreSQL in the same round trip);
     * a further write starts beside it, up to
     * {@link #GROUP_COMMIT_WRITERS} at a time (not counting writes that only wait for their commit), once
     * {@value #GROUP_COMMIT_MIN_EXTRA} calls wait; a call that finds no
     * write in progress is written at once, alone. Each call still gets its own result, and a batch the
     * database rejects is written again call by call, so a bad turn fails only its own call. The turn is normalized
     * and counted before it joins a batch, in the caller's thread; after the batch commits, each call waits for its
     * own index writes ({@code memory.search.synchronization}), not the batch's writer.
     */
    @Override
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public AppendedTurn addTurn(ConversationKey key, TurnRecord turn, CompactionCommit commit) throws InvalidInputException {
        InputRules.checkKey(key);
        InputRules.checkTurn("turn.", turn, settings.normalizationEnabled());
        if (commit != null) {
            CompactionCommits.check("compaction", commit);
        }
        // Inline embedding takes milliseconds per message: done before taking the conversation's row lock.
        Map<String, float[]> vectors = embedInline(List.of(turn));
        // Normalized and counted (jtokkit) here, in the caller's thread: not in the transaction, where a group-
        // committed batch does this for every call in it, one after the other, while holding row locks.
        TurnRecord resolved = resolveIdentity(turn, turn.turnId() != null ? turn.turnId() : UUID.randomUUID().toString(),
                key.userId(), key.chatbotId(), now());
        PendingAppend append = new PendingAppend(key, resolved, commit, vectors, prepare(resolved),
                new java.util.concurrent.atomic.AtomicReference<>());
        if (transactions.getTransactionKey() != null) {
            return appendLocked(append);
        }
        AppendedTurn appended;
        try {
            appended = APPENDS.submit(append, (batch, committing) -> context
                    .getBusinessObject(ConversationMemoryBean.class).writeAppendBatch(batch, committing));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new EJBException(e);
        }
        try {
            // Searchable when this call returns (memory.search.synchronization), waited for here rather than by the
            // batch's writer, which is already writing the next batch.
            org.agentmemory.search.DeferredIndexing.await(append.indexWrite().get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return appended;
    }

    /** Most turns of concurrent {@code addTurn} calls written in one transaction. */
    static final int GROUP_COMMIT_MAX = 32;

    /**
     * Batches of concurrent {@code addTurn} calls sending their statements at the same time (not counting those that
     * only wait for their commit): one per core, at least two.
     */
    static final int GROUP_COMMIT_WRITERS = Math.max(2, Runtime.getRuntime().availableProcessors());

    /**
     * The fewest queued calls for which a batch starts beside one in progress ({@link GroupCommit}: smaller
     * batches cost a transaction each and little else).
     */
    static final int GROUP_COMMIT_MIN_EXTRA = 4;

    private static final GroupCommit<PendingAppend, AppendedTurn> APPENDS =
            new GroupCommit<>(GROUP_COMMIT_MAX, GROUP_COMMIT_WRITERS, GROUP_COMMIT_MIN_EXTRA);

    /**
     * One {@code addTurn} call waiting to be written: the checked key and the turn with its identity resolved, the
     * compaction commit to fold (or {@code null}), the message vectors computed beforehand (may be empty), the turn
     * prepared beforehand (normalized, counted), and where the batch
     * that writes it leaves the future of its index writes (set at commit; stays empty when nothing was indexed).
     * Not part of the memory views.
     */
    public record PendingAppend(ConversationKey key, TurnRecord turn, CompactionCommit commit,
            Map<String, float[]> vectors, PreparedTurn prepared,
            java.util.concurrent.atomic.AtomicReference<java.util.concurrent.CompletableFuture<
                    ? extends org.hibernate.search.mapper.pojo.work.SearchIndexingPlanExecutionReport>> indexWrite) {
    }

    /**
     * What is computed for turns before their transaction starts: message vectors by search text (may be empty),
     * and turns already prepared ({@link TurnPreparer}), by the identity of their input record (may be empty).
     */
    private record Precomputed(Map<String, float[]> vectors, Map<TurnRecord, PreparedTurn> prepared) {
        static Precomputed vectorsOnly(Map<String, float[]> vectors) {
            return new Precomputed(vectors, Map.of());
        }

        static Precomputed of(List<PendingAppend> appends) {
            Map<String, float[]> vectors = new java.util.HashMap<>();
            Map<TurnRecord, PreparedTurn> prepared = new java.util.IdentityHashMap<>();
            for (PendingAppend a : appends) {
                vectors.putAll(a.vectors());
                prepared.put(a.turn(), a.prepared());
            }
            return new Precomputed(vectors, prepared);
        }
    }

    /**
     * The write step of {@link #addTurn(ConversationKey, TurnRecord, CompactionCommit)} for calls without a
     * transaction, in a transaction of its own: one batch of concurrent calls (see there). Public only so that the
     * container applies the transaction; not part of the memory views.
     *
     * @param appends    checked calls, in arrival order
     * @param committing run once every statement is sent and only the commit remains ({@link GroupCommit}: the next
     *                   batch may then send its statements while this one waits for its commit)
     * @return one result per call, in the same order
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<AppendedTurn> writeAppendBatch(List<PendingAppend> appends, Runnable committing) {
        deferredIndexing.handOff(em, write -> appends.forEach(a -> a.indexWrite().set(write)));
        Map<ConversationKey, List<Integer>> positions = new LinkedHashMap<>();
        Map<ConversationKey, List<TurnRecord>> turnsByKey = new LinkedHashMap<>();
        for (int i = 0; i < appends.size(); i++) {
            PendingAppend a = appends.get(i);
            positions.computeIfAbsent(a.key(), k -> new ArrayList<>()).add(i);
            turnsByKey.computeIfAbsent(a.key(), k -> new ArrayList<>()).add(a.turn());
        }
        LockedConversations lockedRows = new LockedConversations();
        Map<Long, java.util.Set<String>> stored = new java.util.HashMap<>();
        Map<ConversationKey, Conversation> locked = lockByKeys(turnsByKey, lockedRows, stored);
        AppendedTurn[] results = new AppendedTurn[appends.size()];
        TurnRows rows = new TurnRows();
        appendToLocked(locked, turnsByKey, stored, Precomputed.of(appends), rows).forEach((key, written) -> {
            List<Integer> at = positions.get(key);
            for (int j = 0; j < at.size(); j++) {
                results[at.get(j)] = foldCommit(written.conversation(), written.turns().get(j),
                        appends.get(at.get(j)).commit());
            }
        });
        // Written and flushed here so that a database error surfaces inside this method (and the batch is retried
        // call by call), not at the commit.
        insert(rows, lockedRows);
        em.flush();
        committing.run();
        return List.of(results);
    }

    /** The turns appended to one locked conversation by {@link #appendToLocked}, in input order. */
    private record LockedAppend(Conversation conversation, List<AppendedTurn> turns) {
    }

    /**
     * Appends each key's turns in order to its locked conversation; no query runs between the inserts.
     *
     * @param locked     the locked conversation of each key ({@link #lockByKeys})
     * @param turnsByKey the turns to append, by key, each list in order
     * @param stored     which of the turns' ids each locked conversation already holds, by conversation id, as
     *                   {@link #lockByKeys} found them under the locks
     * @param pre        message vectors and prepared turns computed beforehand (may be empty)
     * @param rows       collects the new rows, which the caller inserts ({@link #insert(TurnRows)})
     * @return per key, the locked conversation and one result per turn
     */
    private Map<ConversationKey, LockedAppend> appendToLocked(Map<ConversationKey, Conversation> locked,
            Map<ConversationKey, List<TurnRecord>> turnsByKey, Map<Long, java.util.Set<String>> stored,
            Precomputed pre, TurnRows rows) {
        Map<ConversationKey, LockedAppend> written = new LinkedHashMap<>();
        for (Map.Entry<ConversationKey, List<TurnRecord>> entry : turnsByKey.entrySet()) {
            Conversation c = requireCreated(locked.get(entry.getKey()), entry.getKey());
            written.put(entry.getKey(), new LockedAppend(c,
                    appendAll(c, entry.getValue(), stored.getOrDefault(c.getId(), java.util.Set.of()), pre, rows)));
        }
        return written;
    }

    /** Most conversation ids remembered by {@link #CONVERSATION_IDS}. */
    static final int CONVERSATION_ID_CACHE_SIZE = 10_000;

    /** The ids of conversations written recently by this server, by key: hints, checked under the row lock. */
    private static final ConversationIdCache CONVERSATION_IDS = new ConversationIdCache(CONVERSATION_ID_CACHE_SIZE);

    /**
     * Takes the writers' row locks of many conversations, creating the missing ones first (in short transactions of
     * their own, {@link #createMissing}), and finds under the locks which of the turns' ids each one already holds.
     * The rows are locked in one statement in ascending id order, so concurrent batches and imports cannot
     * deadlock, and the turn ids are looked up right after, in the same round trip on PostgreSQL
     * ({@link ConversationStore#lockAll(LockedConversations, java.util.Collection, Map)}). A key's id comes from
     * {@link #CONVERSATION_IDS} when this server wrote to it recently, otherwise from one query for all unknown keys;
     * a remembered id whose row is gone or holds another key (the conversation was deleted meanwhile) is forgotten
     * and the key looked up again, in a further round. The rows are read in plain JDBC ({@link LockedConversations}):
     * the conversations returned are detached, and the caller writes their changes back with
     * {@link #insert(TurnRows, LockedConversations)}, not a flush.
     *
     * @param turnsByKey the keys, with the turns to append to each (their ids are looked up; a turn without an id
     *                   is not)
     * @param into       the transaction's locked set, which the rows join
     * @param stored     receives, by conversation id, which of the turn ids the locked conversations hold
     * @return key → its locked conversation, for every key
     * @throws NullPointerException when a key's conversation was deleted again after each of
     *                              {@value #CREATE_ATTEMPTS} rounds of creation
     */
    private Map<ConversationKey, Conversation> lockByKeys(Map<ConversationKey, List<TurnRecord>> turnsByKey,
            LockedConversations into, Map<Long, java.util.Set<String>> stored) {
        Map<ConversationKey, Conversation> locked = new java.util.HashMap<>();
        java.util.Set<ConversationKey> pending = new java.util.LinkedHashSet<>(turnsByKey.keySet());
        for (int round = 1; !pending.isEmpty(); round++) {
            if (round > CREATE_ATTEMPTS) {
                requireCreated(null, pending.iterator().next());
            }
            Map<ConversationKey, Long> ids = new java.util.HashMap<>();
            List<ConversationKey> unknown = new ArrayList<>();
            for (ConversationKey key : pending) {
                Long id = CONVERSATION_IDS.get(key);
                if (id != null) {
                    ids.put(key, id);
                } else {
                    unknown.add(key);
                }
            }
            ids.putAll(findOrCreateIds(unknown));
            // The candidates by the id each key resolved to: a stale id's findings belong to the conversation that
            // holds that id now, so they stay true of it (the set only ever names turn ids that it holds).
            Map<Long, List<String>> turnIds = new java.util.HashMap<>();
            ids.forEach((key, id) -> turnsByKey.get(key).forEach(t -> {
                if (t.turnId() != null) {
                    turnIds.computeIfAbsent(id, c -> new ArrayList<>()).add(t.turnId());
                }
            }));
            ConversationStore.LockedTurnIds found = store().lockAll(into, ids.values(), turnIds);
            for (ConversationKey key : pending) {
                Long id = ids.get(key);
                Conversation c = id == null ? null : found.locked().get(id);
                if (c != null && key.equals(TurnMapper.key(c))) {
                    locked.put(key, c);
                    CONVERSATION_IDS.put(key, id);
                    java.util.Set<String> held = found.stored().get(id);
                    if (held != null) {
                        stored.computeIfAbsent(id, k -> new java.util.HashSet<>()).addAll(held);
                    }
                } else {
                    CONVERSATION_IDS.remove(key);
                }
            }
            pending.removeAll(locked.keySet());
        }
        return locked;
    }

    /**
     * The conversation ids of keys, creating the missing conversations ({@link #createMissing}, in the order of
     * {@code keys}); one query per tenant for the existing ones, one more for those created.
     *
     * @param keys keys, each at most once
     * @return key → conversation id, for every key that exists now
     */
    private Map<ConversationKey, Long> findOrCreateIds(List<ConversationKey> keys) {
        Map<ConversationKey, Long> ids = new java.util.HashMap<>();
        Map<String, List<ConversationKey>> byTenant = new LinkedHashMap<>();
        keys.forEach(k -> byTenant.computeIfAbsent(k.tenantId(), t -> new ArrayList<>()).add(k));
        byTenant.forEach((tenantId, tenantKeys) -> {
            Map<ConversationKey, Long> found = store().findIdsByKeys(tenantId, tenantKeys);
            List<ConversationKey> missing = tenantKeys.stream().filter(k -> !found.containsKey(k)).toList();
            if (!missing.isEmpty()) {
                createMissing(missing);
                found.putAll(store().findIdsByKeys(tenantId, missing));
            }
            ids.putAll(found);
        });
        return ids;
    }

    /**
     * Inserts bulk rows in the current transaction (multi-row statements on its connection, {@link TurnRows}) and
     * has Hibernate Search index their messages when it commits, as it does for persisted ones.
     */
    private void insert(TurnRows rows) {
        insert(rows, null);
    }

    /**
     * As {@link #insert(TurnRows)}, then writes back the conversations locked in plain JDBC ({@code locked}, may be
     * {@code null}) that changed.
     */
    private void insert(TurnRows rows, LockedConversations locked) {
        if (rows.isEmpty() && locked == null) {
            return;
        }
        EntityMappings mappings = new EntityMappings(em);
        rows.assignIds(mappings);
        em.unwrap(org.hibernate.Session.class).doWork(con -> {
            // On PostgreSQL the inserts and the conversations' updates go in one round trip.
            StatementPipeline statements = new StatementPipeline(con);
            rows.insert(statements, mappings);
            if (locked != null) {
                locked.write(statements, mappings);
            }
            statements.execute();
        });
        if (rows.isEmpty()) {
            return;
        }
        var plan = org.hibernate.search.mapper.orm.Search.session(em).indexingPlan();
        rows.messages().forEach(plan::addOrUpdate);
        statistics.turnsWritten(rows.turnCount());
    }

    /**
     * Locks (creating when needed) the conversation and appends one turn, in the caller's transaction: the
     * conversation is loaded into (or found in) the caller's persistence context and updated by its flush, as the
     * caller may have read or changed it already. Calls without a transaction go through
     * {@link #writeAppendBatch}, alone or not.
     */
    private AppendedTurn appendLocked(PendingAppend append) {
        Conversation c = lockOrCreate(append.key());
        TurnRows rows = new TurnRows();
        AppendedTurn appended = appendAll(c, List.of(append.turn()), Precomputed.of(List.of(append)), rows).get(0);
        insert(rows);
        return foldCommit(c, appended, append.commit());
    }

    /**
     * Spec §4 add_turn: the calibration state is folded with the round's commit in the same write as the turn
     * (nothing for a repeated turn id or without a commit); fires the Stage-2 event when the flag flips.
     */
    private AppendedTurn foldCommit(Conversation c, AppendedTurn appended, CompactionCommit commit) {
        if (appended.created() && commit != null) {
            CompactionCommits.Folded folded = CompactionCommits.fold(c.getMetadata(), commit,
                    settings.tokenCounter().name(), appended.turn().metadata(), Clock.systemUTC());
            c.setMetadata(folded.metadata(), now());
            if (folded.stage2Flipped()) {
                stage2Events.fire(new Stage2CompactionNeeded(c.getTenantId(), c.getId(), commit.historyEstimate(),
                        commit.available(), commit.droppedTurns()));
            }
        }
        return appended;
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public AppendedTurn addTurnFromAiMessage(ConversationKey key, AiMessageTurn message) throws InvalidInputException {
        InputRules.checkKey(key);
        if (message == null || message.response() == null) {
            throw new InvalidInputException(message == null ? "message" : "response", "required",
                    "The assistant message (response) is required.");
        }
        TurnRecord turn = AiMessageTurns.fromAiMessage(message.userMessage() == null ? "" : message.userMessage(),
                message.response(), key.userId(), key.chatbotId(), message.contextUsed(), message.turnId(),
                message.assistantText(), message.error(), message.toolInvocations());
        return addTurn(key, turn, message.commit());
    }

    @Override
    public CompactionState reportUsage(ConversationKey key, long promptEstimate, long providerPromptTokens)
            throws InvalidInputException {
        InputRules.checkKey(key);
        Conversation c = store().findByKey(key, true);
        if (c == null) {
            return null;
        }
        CompactionState previous = compactionState(c);
        CompactionState base = previous == null ? CompactionState.initial(settings.tokenCounter().name()) : previous;
        CompactionState next = Calibration.applyUsage(base, promptEstimate, providerPromptTokens, Clock.systemUTC());
        if (next != base) {
            writeCompactionState(c, next);
        }
        return next;
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public ConversationMetadata mergeMetadata(String tenantId, long conversationId, Map<String, Object> patch)
            throws NotFoundException, VersionConflictException, InvalidInputException {
        if (patch == null) {
            throw new InvalidInputException("patch", "required", "The merge patch is required: a JSON object.");
        }
        InputRules.checkJsonObject("patch", patch);
        existing(tenantId, conversationId, false);
        int attempts = settings.metadataMergeAttempts();
        for (int attempt = 1; attempt <= attempts; attempt++) {
            ConversationMetadata merged = merger.tryMerge(tenantId, conversationId, patch);
            if (merged != null) {
                return merged;
            }
            backOff(attempt);
        }
        long current = existing(tenantId, conversationId, false).getVersion();
        throw new VersionConflictException(-1, current, "Conversation " + conversationId + ": the metadata merge lost to"
                + " concurrent writers " + attempts + " times (memory.metadata.merge-attempts); try again.");
    }

    /** Short randomized pause before re-reading, so competing writers spread out. */
    private static void backOff(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 2L + 3L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the persisted calibration state (spec §4), or {@code null} when none was written yet */
    @SuppressWarnings("unchecked")
    private static CompactionState compactionState(Conversation c) {
        Object stored = c.getMetadata().get(COMPACTION_KEY);
        return stored instanceof Map<?, ?> map ? CompactionState.fromMap((Map<String, ?>) map) : null;
    }

    private void writeCompactionState(Conversation c, CompactionState state) {
        Map<String, Object> metadata = new LinkedHashMap<>(c.getMetadata());
        metadata.put(COMPACTION_KEY, state.toMap());
        c.setMetadata(metadata, now());
    }

    @Override
    public List<AppendedTurn> addTurns(ConversationKey key, List<TurnRecord> turns) throws InvalidInputException {
        InputRules.checkKey(key);
        checkBatchSize("turns", turns);
        for (int i = 0; i < turns.size(); i++) {
            InputRules.checkTurn("turns[" + i + "].", turns.get(i), settings.normalizationEnabled());
        }
        Map<String, float[]> vectors = embedInline(turns);
        Conversation c = lockOrCreate(key);
        TurnRows rows = new TurnRows();
        List<AppendedTurn> appended = appendAll(c, turns, Precomputed.vectorsOnly(vectors), rows);
        insert(rows);
        return appended;
    }

    @Override
    public ImportReport importTurns(String tenantId, List<ImportLine> lines) throws InvalidInputException {
        return importTurns(tenantId, lines, false);
    }

    @Override
    public int awaitDeferredIndexing() {
        return deferredIndexing.awaitAll(em, DEFERRED_INDEXING_WAIT_MS);
    }

    /**
     * Imports in three steps, each in its own transaction or none: every line is checked and its messages
     * embedded (no transaction, no connection held); missing conversations are created one short transaction
     * each, in the order they first appear; then all turns are written in one transaction
     * ({@link #writeImportBatch}). When that write fails in the database, each line is written on its own so
     * that the good ones are kept and the bad one is reported, and a conversation this call created for lines
     * that all failed is removed again: {@code conversationsCreated} counts the conversations this call created
     * that remain.
     */
    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public ImportReport importTurns(String tenantId, List<ImportLine> lines, boolean deferIndexing)
            throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        checkBatchSize("lines", lines);
        List<ImportReport.LineError> errors = new ArrayList<>();
        Map<ConversationKey, List<ImportLine>> byKey = new LinkedHashMap<>();
        for (ImportLine line : lines) {
            try {
                if (line == null || line.key() == null) {
                    throw new InvalidInputException("key", "required", "Each line needs a key (userId and sessionId).");
                }
                ConversationKey key = new ConversationKey(tenantId, line.key().chatbotId(), line.key().userId(),
                        line.key().sessionId());
                try {
                    InputRules.checkKey(key);
                } catch (InvalidInputException badKey) {
                    // Named by its path in the JSONL line, as the turn's fields are ("turn.…").
                    throw new InvalidInputException("key." + badKey.field(), badKey.rule(), badKey.getMessage());
                }
                InputRules.checkTurn("turn.", line.turn(), settings.normalizationEnabled());
                byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(line);
            } catch (InvalidInputException e) {
                errors.add(new ImportReport.LineError(line == null ? 0 : line.lineNumber(), e.field(), e.getMessage()));
            }
        }
        List<TurnRecord> toEmbed = new ArrayList<>();
        byKey.values().forEach(ls -> ls.forEach(l -> toEmbed.add(l.turn())));
        // Embedding is the slow part of indexing messages: done before any transaction starts.
        Map<String, float[]> vectors = embedInline(toEmbed);
        // Create missing conversations first, in the order they first appear, so that conversation ids (and
        // therefore listings and exports) follow the source: all in one short transaction of their own (nothing
        // else is locked in it). When that fails (a concurrent import or writer created one of them, or inserted
        // the same keys in another order and the database broke the deadlock) they are created one by one, one
        // short transaction each, which never waits on another call's uncommitted insert for long.
        Map<ConversationKey, Long> existing = store().findIdsByKeys(tenantId, byKey.keySet());
        // Hints for the write step's lock (checked there), which then looks up only the keys created here.
        existing.forEach(CONVERSATION_IDS::put);
        java.util.Set<ConversationKey> created = createMissing(
                byKey.keySet().stream().filter(k -> !existing.containsKey(k)).toList());
        long[] counts;
        try {
            counts = write(tenantId, byKey, vectors, deferIndexing, created, errors);
        } catch (RuntimeException | Error unexpected) {
            // Not a rejected line (those are handled): leave no empty conversation this call created behind.
            for (ConversationKey key : created) {
                try {
                    creator.removeIfEmpty(key);
                } catch (RuntimeException cleanupFailed) {
                    unexpected.addSuppressed(cleanupFailed);
                }
            }
            throw unexpected;
        }
        errors.sort(Comparator.comparingLong(ImportReport.LineError::line));
        return new ImportReport(lines.size(), counts[0], counts[1], created.size(), errors);
    }

    /** Writes the batch in one transaction, or line by line when the database rejects it (see importTurns). */
    private long[] write(String tenantId, Map<ConversationKey, List<ImportLine>> byKey, Map<String, float[]> vectors,
            boolean deferIndexing, java.util.Set<ConversationKey> created, List<ImportReport.LineError> errors) {
        ConversationMemoryBean self = context.getBusinessObject(ConversationMemoryBean.class);
        long[] counts;
        try {
            counts = self.writeImportBatch(tenantId, byKey, vectors, deferIndexing);
        } catch (EJBException batchFailed) {
            LOG.log(Level.WARNING, "An import batch of " + byKey.values().stream().mapToInt(List::size).sum()
                    + " lines failed; storing it line by line",
                    batchFailed);
            counts = new long[2];
            for (Map.Entry<ConversationKey, List<ImportLine>> entry : byKey.entrySet()) {
                boolean anyStored = false;
                for (ImportLine line : entry.getValue()) {
                    try {
                        if (store().findByKey(entry.getKey(), false) == null) {
                            createQuietly(entry.getKey(), null);
                        }
                        long[] one = self.writeImportBatch(tenantId, Map.of(entry.getKey(), List.of(line)), vectors,
                                deferIndexing);
                        counts[0] += one[0];
                        counts[1] += one[1];
                        anyStored = true;
                    } catch (EJBException lineFailed) {
                        String id = UUID.randomUUID().toString();
                        LOG.log(Level.WARNING, "Import line " + line.lineNumber() + " could not be stored (error id "
                                + id + ")", lineFailed);
                        errors.add(new ImportReport.LineError(line.lineNumber(), null, "could not be stored: the"
                                + " database rejected it; error id " + id + " in the server log says why"));
                    }
                }
                if (!anyStored && created.contains(entry.getKey()) && creator.removeIfEmpty(entry.getKey())) {
                    created.remove(entry.getKey());
                }
            }
        }
        return counts;
    }

    /**
     * The write step of {@link #importTurns(String, List, boolean)}, in a transaction of its own; not part of
     * the memory views (public only so that the container can apply the transaction).
     *
     * @param tenantId      the tenant
     * @param byKey         checked lines by conversation, each list in line order; every conversation exists (one
     *                      deleted since is created again, {@link #lockByKeys})
     * @param vectors       message vectors computed beforehand, by turn id (may be empty)
     * @param deferIndexing whether the search index writes are left to complete after the commit
     * @return {@code [turns written, duplicates]}
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public long[] writeImportBatch(String tenantId, Map<ConversationKey, List<ImportLine>> byKey,
            Map<String, float[]> vectors, boolean deferIndexing) {
        Map<ConversationKey, List<TurnRecord>> turnsByKey = new LinkedHashMap<>();
        byKey.forEach((key, lines) -> turnsByKey.put(key, lines.stream().map(ImportLine::turn).toList()));
        LockedConversations lockedRows = new LockedConversations();
        Map<Long, java.util.Set<String>> stored = new java.util.HashMap<>();
        Map<ConversationKey, Conversation> locked = lockByKeys(turnsByKey, lockedRows, stored);
        if (deferIndexing) {
            deferredIndexing.defer(em);
        }
        long imported = 0;
        long duplicates = 0;
        TurnRows rows = new TurnRows();
        for (LockedAppend written : appendToLocked(locked, turnsByKey, stored, Precomputed.vectorsOnly(vectors),
                rows).values()) {
            for (AppendedTurn appended : written.turns()) {
                if (appended.created()) {
                    imported++;
                } else {
                    duplicates++;
                }
            }
        }
        // Written and flushed here so that a database error surfaces inside this method, not at the commit.
        insert(rows, lockedRows);
        em.flush();
        return new long[] {imported, duplicates};
    }

    @Override
    public long clearHistory(String tenantId, long conversationId) throws NotFoundException {
        Conversation c = existing(tenantId, conversationId, true);
        new OmissionStore(em).clear(c);
        MessageIndex.purgeConversation(em, c.getId());
        return store().clear(c, now());
    }

    @Override
    public boolean deleteHistory(String tenantId, long conversationId) {
        Conversation c = store().find(tenantId, conversationId, true);
        if (c == null) {
            return false;
        }
        MessageIndex.purgeConversation(em, c.getId());
        return store().delete(tenantId, conversationId);
    }

    @Override
    public long findConversationId(ConversationKey key) throws NotFoundException, InvalidInputException {
        return existing(key).getId();
    }

    @Override
    public Page<ConversationSummary> listSessions(String tenantId, String userId, String chatbotId, int limit,
            String cursor) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("userId", userId);
        InputRules.checkOptionalId("chatbotId", chatbotId);
        return page(store().list(tenantId, userId, chatbotId != null, chatbotId, checkedIdBound(limit, cursor), limit), limit);
    }

    @Override
    public Page<ConversationSummary> listSessionsByChatbot(String tenantId, String chatbotId, String userId, int limit,
            String cursor) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkOptionalId("chatbotId", chatbotId);
        InputRules.checkOptionalId("userId", userId);
        return page(store().list(tenantId, userId, true, chatbotId, checkedIdBound(limit, cursor), limit), limit);
    }

    @Override
    public ChatbotStats chatbotStats(String tenantId, String chatbotId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkOptionalId("chatbotId", chatbotId);
        long[] counts = store().chatbotCounts(tenantId, chatbotId);
        double average = counts[0] == 0 ? 0.0 : (double) counts[1] / counts[0];
        return new ChatbotStats(chatbotId, counts[0], counts[1], counts[2], average);
    }

    @Override
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

    // ------------------------------------------------------------------------------------------------

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
        return new Page<>(summaries, more ? Cursors.ofId(items.get(items.size() - 1).getId()) : null);
    }

    private static void checkBatchSize(String field, List<?> items) throws InvalidInputException {
        if (items == null || items.isEmpty()) {
            throw new InvalidInputException(field, "not-empty", field + " must contain at least one item.");
        }
        if (items.size() > ConversationMemoryOperations.MAX_BATCH_TURNS) {
            throw new InvalidInputException(field, "max-items", field + " has " + items.size()
                    + " items; the limit is " + ConversationMemoryOperations.MAX_BATCH_TURNS + " per call. Split it.");
        }
    }

    private Conversation existing(String tenantId, long conversationId, boolean lock) throws NotFoundException {
        Conversation c = store().find(tenantId, conversationId, lock);
        if (c == null) {
            throw new NotFoundException("conversation", Long.toString(conversationId),
                    "Conversation " + conversationId + " does not exist in tenant '" + tenantId + "'.");
        }
        return c;
    }

    /**
     * @return the message vectors of turns about to be written when {@code memory.recall.embedding} is
     *         {@code inline}; nothing otherwise (the background embedder adds them after the write)
     */
    private Map<String, float[]> embedInline(List<TurnRecord> turns) {
        return settings.inlineMessageEmbedding() ? MessageIndex.embed(settings.messageEmbeddingModel(), turns) : Map.of();
    }

    /** @return the conversation of a validated key (no lock) */
    private Conversation existing(ConversationKey key) throws NotFoundException, InvalidInputException {
        InputRules.checkKey(key);
        Conversation c = store().findByKey(key, false);
        if (c == null) {
            throw notFound(key);
        }
        return c;
    }

    private static NotFoundException notFound(ConversationKey key) {
        return new NotFoundException("conversation", null, "No conversation for userId '" + key.userId()
                + "', sessionId '" + key.sessionId() + "', chatbotId "
                + (key.chatbotId() == null ? "(default agent)" : "'" + key.chatbotId() + "'")
                + " in tenant '" + key.tenantId() + "'.");
    }

    /** Rounds of create-then-lock before {@link #lockOrCreate} gives up (each lost to a concurrent delete). */
    private static final int CREATE_ATTEMPTS = 5;

    /**
     * Finds and locks the conversation, creating it first when needed. A conversation deleted by a concurrent
     * call between its creation and the lock is created again (up to {@value #CREATE_ATTEMPTS} times).
     */
    private Conversation lockOrCreate(ConversationKey key) {
        for (int attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
            Conversation c = store().findByKey(key, true);
            if (c != null) {
                return c;
            }
            createQuietly(key, null);
        }
        return requireCreated(store().findByKey(key, true), key);
    }

    /**
     * Creates conversations that were missing a moment ago: all in one transaction, or, when that fails for any
     * reason (one was created concurrently, a deadlock), one short transaction each.
     *
     * @param missing keys, each at most once, in the order their ids should follow
     * @return the keys this call created (the others exist because a concurrent call created them)
     */
    private java.util.Set<ConversationKey> createMissing(List<ConversationKey> missing) {
        java.util.Set<ConversationKey> created = new java.util.LinkedHashSet<>();
        if (missing.size() > 1) {
            try {
                if (creator.createAllAbsent(missing)) {
                    created.addAll(missing);
                    return created;
                }
            } catch (EJBException failed) {
                LOG.log(Level.FINE, "Creating " + missing.size() + " conversations at once failed; creating them one"
                        + " by one", failed);
            }
        }
        for (ConversationKey key : missing) {
            if (createQuietly(key, null)) {
                created.add(key);
            }
        }
        return created;
    }

    private boolean createQuietly(ConversationKey key, Map<String, Object> metadata) {
        try {
            return creator.createIfAbsent(key, metadata);
        } catch (EJBException raceLost) {
            // A concurrent writer committed the same key first; its row is what we use.
            return false;
        }
    }

    private static Conversation requireCreated(Conversation c, ConversationKey key) {
        return Objects.requireNonNull(c, () -> "conversation " + key + " was neither found nor created");
    }

    /**
     * A turn with the identity it is stored with: the given turn id, its user and chatbot (the conversation's when
     * absent) and its timestamp ({@code now} when absent, else truncated to microseconds).
     */
    private static TurnRecord resolveIdentity(TurnRecord turn, String turnId, String userId, String chatbotId,
            Instant now) {
        return turn.withIdentity(turnId, null, turn.userId() != null ? turn.userId() : userId,
                turn.timestamp() == null ? now : turn.timestamp().truncatedTo(ChronoUnit.MICROS),
                turn.chatbotId() != null ? turn.chatbotId() : chatbotId, TurnState.RAW, 2);
    }

    /** Spec §2–§3: normalizes, counts tokens and finds the oversized tool outputs of a turn with its identity. */
    private PreparedTurn prepare(TurnRecord resolved) {
        return TurnPreparer.prepare(resolved, settings.normalizationEnabled(), settings.tokenCounter(),
                settings.offloadThresholdTokens());
    }

    /**
     * Appends turns in order to a locked conversation, idempotent on turn ids: ids already stored, or repeated
     * within the list, are answered with the stored turn and {@code created == false}. Which ids exist is
     * asked once, before anything is written, so no query runs between the inserts.
     */
    private List<AppendedTurn> appendAll(Conversation c, List<TurnRecord> inputs, Precomputed pre, TurnRows rows) {
        List<String> given = new ArrayList<>();
        inputs.forEach(t -> {
            if (t.turnId() != null) {
                given.add(t.turnId());
            }
        });
        return appendAll(c, inputs, given.isEmpty() ? java.util.Set.of() : store().existingTurnIds(c, given), pre,
                rows);
    }

    /** As {@link #appendAll(Conversation, List, Map, TurnRows)} with the stored ids already known. */
    private List<AppendedTurn> appendAll(Conversation c, List<TurnRecord> inputs, java.util.Set<String> stored,
            Precomputed pre, TurnRows rows) {
        List<String> ids = new ArrayList<>(inputs.size());
        for (TurnRecord input : inputs) {
            ids.add(input.turnId() != null ? input.turnId() : UUID.randomUUID().toString());
        }
        Map<String, AppendedTurn> writtenNow = new java.util.HashMap<>();
        List<AppendedTurn> results = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            String turnId = ids.get(i);
            AppendedTurn earlier = writtenNow.get(turnId);
            if (earlier != null) {
                results.add(new AppendedTurn(earlier.conversationId(), earlier.turn(), false));
            } else if (stored.contains(turnId)) {
                Turn existing = store().findTurn(c, turnId);
                results.add(new AppendedTurn(c.getId(), TurnMapper.record(existing, existing.getInvocations()), false));
            } else {
                AppendedTurn appended = write(c, inputs.get(i), turnId, pre, rows);
                writtenNow.put(turnId, appended);
                results.add(appended);
            }
        }
        return results;
    }

    /**
     * Prepares (normalize, count, offload) and writes one new turn with the next sequence number, and its
     * searchable messages (embedded beforehand: {@code vectors}), collected in {@code rows}, which the caller
     * inserts ({@link #insert(TurnRows)}).
     */
    private AppendedTurn write(Conversation c, TurnRecord input, String turnId, Precomputed pre, TurnRows rows) {
        Instant now = now();
        TurnRecord resolved = resolveIdentity(input, turnId, c.getUserId(), c.getChatbotId(), now);
        Instant timestamp = resolved.timestamp();
        PreparedTurn prepared = pre.prepared().get(input);
        if (prepared == null) {
            prepared = prepare(resolved);
        }
        if (!prepared.omissions().isEmpty()) {
            OmissionStore omissions = new OmissionStore(em);
            // A conversation locked in plain JDBC is detached: the omission rows refer to it by reference.
            Conversation owner = em.contains(c) ? c : em.getReference(Conversation.class, c.getId());
            for (Omission omission : prepared.omissions()) {
                omissions.put(owner, omission.content(), turnId, omission.toolName(), now, settings.omissionTtl());
            }
        }
        String model = settings.messageEmbeddingModel().name();
        Turn turn = store().newTurn(c, prepared.turn(), now);
        rows.add(turn);
        MessageIndex.messages(turn, input, pre.vectors(), model).forEach(rows::add);
        TurnRecord stored = prepared.turn().withIdentity(turnId, turn.getSeq(), resolved.userId(), timestamp,
                resolved.chatbotId(), TurnState.RAW, prepared.turn().schemaVersion());
        return new AppendedTurn(c.getId(), stored, true);
    }

    @Override
    public String getOmission(String tenantId, long conversationId, String contentId) throws NotFoundException {
        Conversation c = existing(tenantId, conversationId, false);
        String content = contentId == null ? null : new OmissionStore(em).get(c, contentId, now());
        if (content == null) {
            throw new NotFoundException("omission", contentId, String.format(Locale.ROOT, EXPIRED_MESSAGE, contentId));
        }
        return content;
    }

    @Override
    public Map<String, Boolean> probeOmissions(String tenantId, long conversationId, List<String> contentIds)
            throws NotFoundException, InvalidInputException {
        if (contentIds == null || contentIds.size() > ConversationMemoryOperations.MAX_PAGE_SIZE) {
            throw new InvalidInputException("contentIds", "max-items", "contentIds must list 0 to "
                    + ConversationMemoryOperations.MAX_PAGE_SIZE + " ids.");
        }
        Conversation c = existing(tenantId, conversationId, false);
        return new LinkedHashMap<>(new OmissionStore(em).probeMany(c, contentIds, now()));
    }

    @Override
    public List<String> listOmissions(String tenantId, long conversationId, String turnId) throws NotFoundException {
        Conversation c = existing(tenantId, conversationId, false);
        return new ArrayList<>(new OmissionStore(em).listByTurn(c, turnId, now()));
    }
}
