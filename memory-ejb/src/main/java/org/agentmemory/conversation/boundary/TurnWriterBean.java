package org.agentmemory.conversation.boundary;

import jakarta.annotation.Resource;
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
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.CompactionState;
import org.agentmemory.api.compaction.Stage2CompactionNeeded;
import org.agentmemory.api.conversation.AiMessageTurn;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryOperations;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.boundary.Stage2Config;
import org.agentmemory.conversation.control.AiMessageTurns;
import org.agentmemory.conversation.control.CompactionStates;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.control.ConversationWriter;
import org.agentmemory.conversation.control.ConversationWriter.PendingAppend;
import org.agentmemory.conversation.control.ConversationWriter.Precomputed;
import org.agentmemory.conversation.control.GroupCommit;
import org.agentmemory.conversation.control.LockedConversations;
import org.agentmemory.conversation.control.TurnRows;
import org.agentmemory.conversation.control.TurnsDropped;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.search.DeferredIndexing;
import org.agentmemory.platform.validation.InputRules;

/**
 * Writes turns (spec §1, §4, §6): one turn, a batch of turns of one conversation, a turn built from an assistant
 * message, and the provider's usage report. The turn and the folded compaction state are written in one transaction
 * under the conversation's row lock, so the Stage-2 flip is seen by exactly one writer; the event reaches observers
 * after the commit, as does the request to extend the conversation's Stage 2 summary ({@link TurnsDropped}, handled
 * in the background by {@link SummaryRefreshBean}, never on this write path).
 *
 * <p>A call made in the caller's transaction is written in it, alone. Otherwise concurrent calls are group-committed
 * ({@link GroupCommit}, owned by {@link WriteCoordination}): calls that arrive while a write is in progress are
 * written together in one transaction ({@link #writeAppendBatch}), each still gets its own result, and a batch the
 * database rejects is written again call by call, so a bad turn fails only its own call. The turn is normalized and
 * counted before it joins a batch, in the caller's thread; after the batch commits, each call waits for its own
 * index writes ({@code memory.search.synchronization}), not the batch's writer.
 */
@Stateless
@LocalBean
public class TurnWriterBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Resource
    SessionContext context;

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Inject
    Settings settings;

    @Inject
    DeferredIndexing deferredIndexing;

    @Inject
    WriteCoordination coordination;

    @Inject
    ConversationWriters writers;

    @Inject
    Event<Stage2CompactionNeeded> stage2Events;

    @Inject
    Event<TurnsDropped> droppedEvents;

    @Inject
    Stage2Config stage2;

    private ConversationWriter writer() {
        return writers.writer();
    }

    /** See {@link ConversationMemoryOperations#addTurn(ConversationKey, TurnRecord, CompactionCommit)}. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public AppendedTurn addTurn(ConversationKey key, TurnRecord turn, CompactionCommit commit)
            throws InvalidInputException {
        InputRules.checkKey(key);
        InputRules.checkTurn("turn.", turn, settings.normalizationEnabled());
        if (commit != null) {
            CompactionStates.check("compaction", commit);
        }
        ConversationWriter writer = writer();
        // Inline embedding takes milliseconds per message: done before taking the conversation's row lock.
        Map<String, float[]> vectors = writer.embedInline(List.of(turn));
        // Normalized and counted (jtokkit) here, in the caller's thread: not in the transaction, where a group-
        // committed batch does this for every call in it, one after the other, while holding row locks.
        TurnRecord resolved = ConversationWriter.resolveIdentity(
                turn,
                turn.turnId() != null ? turn.turnId() : UUID.randomUUID().toString(),
                key.userId(),
                key.chatbotId(),
                ConversationWriter.now());
        PendingAppend append =
                new PendingAppend(key, resolved, commit, vectors, writer.prepare(resolved), new AtomicReference<>());
        if (transactions.getTransactionKey() != null) {
            return appendLocked(writer, append);
        }
        AppendedTurn appended;
        try {
            appended = coordination
                    .appends()
                    .submit(
                            append,
                            (batch, committing) -> context.getBusinessObject(TurnWriterBean.class)
                                    .writeAppendBatch(batch, committing));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new EJBException(e);
        }
        try {
            // Searchable when this call returns (memory.search.synchronization), waited for here rather than by the
            // batch's writer, which is already writing the next batch.
            DeferredIndexing.await(append.indexWrite().get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return appended;
    }

    /**
     * The write step of {@link #addTurn} for calls without a transaction, in a transaction of its own: one batch of
     * concurrent calls. Public only so that the container applies the transaction; not part of the memory views.
     *
     * @param appends    checked calls, in arrival order
     * @param committing run once every statement is sent and only the commit remains ({@link GroupCommit}: the next
     *                   batch may then send its statements while this one waits for its commit)
     * @return one result per call, in the same order
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public List<AppendedTurn> writeAppendBatch(List<PendingAppend> appends, Runnable committing) {
        deferredIndexing.handOff(
                em, write -> appends.forEach(a -> a.indexWrite().set(write)));
        Map<ConversationKey, List<Integer>> positions = new LinkedHashMap<>();
        Map<ConversationKey, List<TurnRecord>> turnsByKey = new LinkedHashMap<>();
        for (int i = 0; i < appends.size(); i++) {
            PendingAppend a = appends.get(i);
            positions.computeIfAbsent(a.key(), k -> new ArrayList<>()).add(i);
            turnsByKey.computeIfAbsent(a.key(), k -> new ArrayList<>()).add(a.turn());
        }
        ConversationWriter writer = writer();
        LockedConversations lockedRows = new LockedConversations();
        Map<Long, Set<String>> stored = new HashMap<>();
        Map<ConversationKey, Conversation> locked = writer.lockByKeys(turnsByKey, lockedRows, stored);
        AppendedTurn[] results = new AppendedTurn[appends.size()];
        TurnRows rows = new TurnRows();
        writer.appendToLocked(locked, turnsByKey, stored, Precomputed.of(appends), rows)
                .forEach((key, written) -> {
                    List<Integer> at = positions.get(key);
                    for (int j = 0; j < at.size(); j++) {
                        results[at.get(j)] = foldCommit(
                                written.conversation(),
                                written.turns().get(j),
                                appends.get(at.get(j)).commit());
                    }
                });
        // Written and flushed here so that a database error surfaces inside this method (and the batch is retried
        // call by call), not at the commit.
        writer.insert(rows, lockedRows);
        em.flush();
        committing.run();
        return List.of(results);
    }

    /**
     * Locks (creating when needed) the conversation and appends one turn, in the caller's transaction: the
     * conversation is loaded into (or found in) the caller's persistence context and updated by its flush, as the
     * caller may have read or changed it already.
     */
    private AppendedTurn appendLocked(ConversationWriter writer, PendingAppend append) {
        Conversation c = writer.lockOrCreate(append.key());
        TurnRows rows = new TurnRows();
        AppendedTurn appended = writer.appendAll(c, List.of(append.turn()), Precomputed.of(List.of(append)), rows)
                .get(0);
        writer.insert(rows);
        return foldCommit(c, appended, append.commit());
    }

    /**
     * Folds the round's commit, fires the Stage-2 event when the flag flips, and asks for the conversation's Stage 2
     * summary to be extended when the commit dropped turns (observers see both after the commit).
     */
    private AppendedTurn foldCommit(Conversation c, AppendedTurn appended, CompactionCommit commit) {
        Stage2CompactionNeeded flipped = CompactionStates.fold(
                c, appended, commit, settings.tokenCounter().name());
        if (flipped != null) {
            stage2Events.fire(flipped);
        }
        TurnsDropped dropped = stage2.enabled() ? CompactionStates.dropped(c, appended, commit) : null;
        if (dropped != null) {
            droppedEvents.fire(dropped);
        }
        return appended;
    }

    /** See {@link ConversationMemoryOperations#addTurnFromAiMessage}. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public AppendedTurn addTurnFromAiMessage(ConversationKey key, AiMessageTurn message) throws InvalidInputException {
        InputRules.checkKey(key);
        if (message == null || message.response() == null) {
            throw new InvalidInputException(
                    message == null ? "message" : "response",
                    "required",
                    "The assistant message (response) is required.");
        }
        TurnRecord turn = AiMessageTurns.fromAiMessage(
                message.userMessage() == null ? "" : message.userMessage(),
                message.response(),
                key.userId(),
                key.chatbotId(),
                message.contextUsed(),
                message.turnId(),
                message.assistantText(),
                message.error(),
                message.toolInvocations());
        return addTurn(key, turn, message.commit());
    }

    /** See {@link ConversationMemoryOperations#reportUsage}. */
    public CompactionState reportUsage(ConversationKey key, long promptEstimate, long providerPromptTokens)
            throws InvalidInputException {
        InputRules.checkKey(key);
        Conversation c = new ConversationStore(em).findByKey(key, true);
        if (c == null) {
            return null;
        }
        return CompactionStates.applyUsage(
                c, promptEstimate, providerPromptTokens, settings.tokenCounter().name());
    }

    /** See {@link ConversationMemoryOperations#addTurns}. */
    public List<AppendedTurn> addTurns(ConversationKey key, List<TurnRecord> turns) throws InvalidInputException {
        InputRules.checkKey(key);
        checkBatchSize("turns", turns);
        for (int i = 0; i < turns.size(); i++) {
            InputRules.checkTurn("turns[" + i + "].", turns.get(i), settings.normalizationEnabled());
        }
        ConversationWriter writer = writer();
        Map<String, float[]> vectors = writer.embedInline(turns);
        Conversation c = writer.lockOrCreate(key);
        TurnRows rows = new TurnRows();
        List<AppendedTurn> appended = writer.appendAll(c, turns, Precomputed.vectorsOnly(vectors), rows);
        writer.insert(rows);
        return appended;
    }

    /**
     * @param field the list's field name
     * @param items the list
     * @throws InvalidInputException when it is empty or over {@link ConversationMemoryOperations#MAX_BATCH_TURNS}
     */
    static void checkBatchSize(String field, List<?> items) throws InvalidInputException {
        if (items == null || items.isEmpty()) {
            throw new InvalidInputException(field, "not-empty", field + " must contain at least one item.");
        }
        if (items.size() > ConversationMemoryOperations.MAX_BATCH_TURNS) {
            throw new InvalidInputException(
                    field,
                    "max-items",
                    field + " has " + items.size() + " items; the limit is "
                            + ConversationMemoryOperations.MAX_BATCH_TURNS + " per call. Split it.");
        }
    }
}
