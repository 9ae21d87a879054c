package org.agentmemory.conversation.control;

import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.omission.Omission;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.omission.control.OmissionScope;
import org.agentmemory.omission.control.OmissionStore;
import org.agentmemory.platform.config.Settings;
import org.hibernate.search.mapper.pojo.work.SearchIndexingPlanExecutionReport;

/**
 * The write pipeline of turns, in the caller's transaction: locks conversations (creating the missing ones through
 * {@link Creation}, in transactions of their own), appends turns idempotently by turn id under the row locks,
 * offloads oversized tool outputs to the omission store, and inserts the rows in bulk ({@link TurnRows}) with their
 * searchable messages. Used by single writes, group-committed batches and imports alike.
 *
 * <p>Writers of one conversation serialize on its row lock ({@code SELECT … FOR UPDATE}); sequence numbers are
 * assigned under that lock, so concurrent appends never lose or reorder a turn. A batch locks its conversations in one
 * statement in ascending id order, so concurrent batches and imports cannot deadlock.
 */
public final class ConversationWriter {

    /** Rounds of create-then-lock before giving up (each lost to a concurrent delete). */
    public static final int CREATE_ATTEMPTS = 5;

    /** Creates conversations in transactions of their own (the caller's creator bean). */
    public interface Creation {
        /**
         * @param key      the conversation's key
         * @param metadata its metadata, or {@code null}
         * @return whether this call created it ({@code false} also when a concurrent writer won the race)
         */
        boolean createIfAbsent(ConversationKey key, Map<String, Object> metadata);

        /**
         * @param keys keys that were missing a moment ago, in the order their ids should follow
         * @return whether all were created in one transaction ({@code false} when that failed for any reason)
         */
        boolean createAllAbsent(List<ConversationKey> keys);
    }

    /**
     * One {@code addTurn} call waiting to be written: the checked key and the turn with its identity resolved, the
     * compaction commit to fold (or {@code null}), the message vectors computed beforehand (may be empty), the turn
     * prepared beforehand (normalized, counted), and where the batch that writes it leaves the future of its index
     * writes (set at commit; stays empty when nothing was indexed).
     */
    public record PendingAppend(
            ConversationKey key,
            TurnRecord turn,
            CompactionCommit commit,
            Map<String, float[]> vectors,
            PreparedTurn prepared,
            AtomicReference<CompletableFuture<? extends SearchIndexingPlanExecutionReport>> indexWrite) {}

    /**
     * What is computed for turns before their transaction starts: message vectors by search text (may be empty),
     * and turns already prepared ({@link TurnPreparer}), by the identity of their input record (may be empty).
     */
    public record Precomputed(Map<String, float[]> vectors, Map<TurnRecord, PreparedTurn> prepared) {
        /** @return only vectors, nothing prepared */
        public static Precomputed vectorsOnly(Map<String, float[]> vectors) {
            return new Precomputed(vectors, Map.of());
        }

        /** @return what the pending calls computed */
        public static Precomputed of(List<PendingAppend> appends) {
            Map<String, float[]> vectors = new HashMap<>();
            Map<TurnRecord, PreparedTurn> prepared = new IdentityHashMap<>();
            for (PendingAppend a : appends) {
                vectors.putAll(a.vectors());
                prepared.put(a.turn(), a.prepared());
            }
            return new Precomputed(vectors, prepared);
        }
    }

    /**
     * The turns appended to one locked conversation by {@link #appendToLocked}, in input order.
     *
     * @param conversation the locked conversation
     * @param turns        one result per turn
     */
    public record LockedAppend(Conversation conversation, List<AppendedTurn> turns) {}

    private final EntityManager em;
    private final ConversationStore store;
    private final Settings settings;
    private final ConversationIdCache conversationIds;
    private final Creation creator;
    private final LongConsumer turnsWritten;

    /**
     * @param em              the transaction's entity manager
     * @param settings        the configuration (normalization, tokenizer, offload threshold, omission TTL, model)
     * @param conversationIds the ids of conversations written recently (hints, checked under the row lock)
     * @param creator         creates missing conversations
     * @param turnsWritten    told how many turns each insert wrote (for the planner statistics)
     */
    public ConversationWriter(
            EntityManager em,
            Settings settings,
            ConversationIdCache conversationIds,
            Creation creator,
            LongConsumer turnsWritten) {
        this.em = em;
        this.store = new ConversationStore(em);
        this.settings = settings;
        this.conversationIds = conversationIds;
        this.creator = creator;
        this.turnsWritten = turnsWritten;
    }

    /** @return now, truncated to microseconds (what the database stores) */
    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
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
    public Map<ConversationKey, LockedAppend> appendToLocked(
            Map<ConversationKey, Conversation> locked,
            Map<ConversationKey, List<TurnRecord>> turnsByKey,
            Map<Long, Set<String>> stored,
            Precomputed pre,
            TurnRows rows) {
        Map<ConversationKey, LockedAppend> written = new LinkedHashMap<>();
        for (Map.Entry<ConversationKey, List<TurnRecord>> entry : turnsByKey.entrySet()) {
            Conversation c = requireCreated(locked.get(entry.getKey()), entry.getKey());
            written.put(
                    entry.getKey(),
                    new LockedAppend(
                            c, appendAll(c, entry.getValue(), stored.getOrDefault(c.getId(), Set.of()), pre, rows)));
        }
        return written;
    }

    /**
     * Takes the writers' row locks of many conversations, creating the missing ones first (in short transactions of
     * their own, {@link #createMissing}), and finds under the locks which of the turns' ids each one already holds.
     * The rows are locked in one statement in ascending id order, so concurrent batches and imports cannot
     * deadlock, and the turn ids are looked up right after, in the same round trip on PostgreSQL
     * ({@link ConversationStore#lockAll(LockedConversations, java.util.Collection, Map)}). A key's id comes from
     * the id cache when this server wrote to it recently, otherwise from one query for all unknown keys;
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
    public Map<ConversationKey, Conversation> lockByKeys(
            Map<ConversationKey, List<TurnRecord>> turnsByKey,
            LockedConversations into,
            Map<Long, Set<String>> stored) {
        Map<ConversationKey, Conversation> locked = new HashMap<>();
        Set<ConversationKey> pending = new LinkedHashSet<>(turnsByKey.keySet());
        for (int round = 1; !pending.isEmpty(); round++) {
            if (round > CREATE_ATTEMPTS) {
                requireCreated(null, pending.iterator().next());
            }
            Map<ConversationKey, Long> ids = new HashMap<>();
            List<ConversationKey> unknown = new ArrayList<>();
            for (ConversationKey key : pending) {
                Long id = conversationIds.get(key);
                if (id != null) {
                    ids.put(key, id);
                } else {
                    unknown.add(key);
                }
            }
            ids.putAll(findOrCreateIds(unknown));
            // The candidates by the id each key resolved to: a stale id's findings belong to the conversation that
            // holds that id now, so they stay true of it (the set only ever names turn ids that it holds).
            Map<Long, List<String>> turnIds = new HashMap<>();
            ids.forEach((key, id) -> turnsByKey.get(key).forEach(t -> {
                if (t.turnId() != null) {
                    turnIds.computeIfAbsent(id, c -> new ArrayList<>()).add(t.turnId());
                }
            }));
            ConversationStore.LockedTurnIds found = store.lockAll(into, ids.values(), turnIds);
            for (ConversationKey key : pending) {
                Long id = ids.get(key);
                Conversation c = id == null ? null : found.locked().get(id);
                if (c != null && key.equals(TurnMapper.key(c))) {
                    locked.put(key, c);
                    conversationIds.put(key, id);
                    Set<String> held = found.stored().get(id);
                    if (held != null) {
                        stored.computeIfAbsent(id, k -> new HashSet<>()).addAll(held);
                    }
                } else {
                    conversationIds.remove(key);
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
        Map<ConversationKey, Long> ids = new HashMap<>();
        Map<String, List<ConversationKey>> byTenant = new LinkedHashMap<>();
        keys.forEach(k ->
                byTenant.computeIfAbsent(k.tenantId(), t -> new ArrayList<>()).add(k));
        byTenant.forEach((tenantId, tenantKeys) -> {
            Map<ConversationKey, Long> found = store.findIdsByKeys(tenantId, tenantKeys);
            List<ConversationKey> missing =
                    tenantKeys.stream().filter(k -> !found.containsKey(k)).toList();
            if (!missing.isEmpty()) {
                createMissing(missing);
                found.putAll(store.findIdsByKeys(tenantId, missing));
            }
            ids.putAll(found);
        });
        return ids;
    }

    /**
     * Inserts bulk rows in the current transaction (multi-row statements on its connection, {@link TurnRows}) and
     * has Hibernate Search index their messages when it commits, as it does for persisted ones.
     *
     * @param rows the rows
     */
    public void insert(TurnRows rows) {
        insert(rows, null);
    }

    /**
     * As {@link #insert(TurnRows)}, then writes back the conversations locked in plain JDBC ({@code locked}, may be
     * {@code null}) that changed.
     *
     * @param rows   the rows
     * @param locked the conversations locked in plain JDBC, or {@code null}
     */
    public void insert(TurnRows rows, LockedConversations locked) {
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
        turnsWritten.accept(rows.turnCount());
    }

    /**
     * Finds and locks the conversation, creating it first when needed. A conversation deleted by a concurrent
     * call between its creation and the lock is created again (up to {@value #CREATE_ATTEMPTS} times).
     *
     * @param key the conversation's key
     * @return the locked conversation, managed by the caller's persistence context
     */
    public Conversation lockOrCreate(ConversationKey key) {
        for (int attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
            Conversation c = store.findByKey(key, true);
            if (c != null) {
                return c;
            }
            creator.createIfAbsent(key, null);
        }
        return requireCreated(store.findByKey(key, true), key);
    }

    /**
     * Creates conversations that were missing a moment ago: all in one transaction, or, when that fails for any
     * reason (one was created concurrently, a deadlock), one short transaction each.
     *
     * @param missing keys, each at most once, in the order their ids should follow
     * @return the keys this call created (the others exist because a concurrent call created them)
     */
    public Set<ConversationKey> createMissing(List<ConversationKey> missing) {
        Set<ConversationKey> created = new LinkedHashSet<>();
        if (missing.size() > 1 && creator.createAllAbsent(missing)) {
            created.addAll(missing);
            return created;
        }
        for (ConversationKey key : missing) {
            if (creator.createIfAbsent(key, null)) {
                created.add(key);
            }
        }
        return created;
    }

    /**
     * @param c   the conversation found, or {@code null}
     * @param key its key
     * @return {@code c}
     * @throws NullPointerException when {@code c} is {@code null}
     */
    public static Conversation requireCreated(Conversation c, ConversationKey key) {
        return Objects.requireNonNull(c, () -> "conversation " + key + " was neither found nor created");
    }

    /**
     * A turn with the identity it is stored with: the given turn id, its user and chatbot (the conversation's when
     * absent) and its timestamp ({@code now} when absent, else truncated to microseconds).
     *
     * @return the turn with its identity resolved
     */
    public static TurnRecord resolveIdentity(
            TurnRecord turn, String turnId, String userId, String chatbotId, Instant now) {
        return turn.withIdentity(
                turnId,
                null,
                turn.userId() != null ? turn.userId() : userId,
                turn.timestamp() == null ? now : turn.timestamp().truncatedTo(ChronoUnit.MICROS),
                turn.chatbotId() != null ? turn.chatbotId() : chatbotId,
                TurnState.RAW,
                2);
    }

    /**
     * Spec §2–§3: normalizes, counts tokens and finds the oversized tool outputs of a turn with its identity.
     *
     * @param resolved the turn with its identity
     * @return the prepared turn
     */
    public PreparedTurn prepare(TurnRecord resolved) {
        return TurnPreparer.prepare(
                resolved, settings.normalizationEnabled(), settings.tokenCounter(), settings.offloadThresholdTokens());
    }

    /**
     * Appends turns in order to a locked conversation, idempotent on turn ids: ids already stored, or repeated
     * within the list, are answered with the stored turn and {@code created == false}. Which ids exist is
     * asked once, before anything is written, so no query runs between the inserts.
     *
     * @return one result per input, in order
     */
    public List<AppendedTurn> appendAll(Conversation c, List<TurnRecord> inputs, Precomputed pre, TurnRows rows) {
        List<String> given = new ArrayList<>();
        inputs.forEach(t -> {
            if (t.turnId() != null) {
                given.add(t.turnId());
            }
        });
        return appendAll(c, inputs, given.isEmpty() ? Set.of() : store.existingTurnIds(c, given), pre, rows);
    }

    /** As {@link #appendAll(Conversation, List, Precomputed, TurnRows)} with the stored ids already known. */
    private List<AppendedTurn> appendAll(
            Conversation c, List<TurnRecord> inputs, Set<String> stored, Precomputed pre, TurnRows rows) {
        List<String> ids = new ArrayList<>(inputs.size());
        for (TurnRecord input : inputs) {
            ids.add(input.turnId() != null ? input.turnId() : UUID.randomUUID().toString());
        }
        Map<String, AppendedTurn> writtenNow = new HashMap<>();
        List<AppendedTurn> results = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            String turnId = ids.get(i);
            AppendedTurn earlier = writtenNow.get(turnId);
            if (earlier != null) {
                results.add(new AppendedTurn(earlier.conversationId(), earlier.turn(), false));
            } else if (stored.contains(turnId)) {
                Turn existing = store.findTurn(c, turnId);
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
            OmissionScope owner = new OmissionScope(c.getTenantId(), c.getId());
            for (Omission omission : prepared.omissions()) {
                omissions.put(owner, omission.content(), turnId, omission.toolName(), now, settings.omissionTtl());
            }
        }
        String model = settings.messageEmbeddingModel().name();
        Turn turn = store.newTurn(c, prepared.turn(), now);
        rows.add(turn);
        TurnMessages.messages(turn, input, pre.vectors(), model).forEach(rows::add);
        TurnRecord stored = prepared.turn()
                .withIdentity(
                        turnId,
                        turn.getSeq(),
                        resolved.userId(),
                        timestamp,
                        resolved.chatbotId(),
                        TurnState.RAW,
                        prepared.turn().schemaVersion());
        return new AppendedTurn(c.getId(), stored, true);
    }

    /**
     * @param turns turns about to be written
     * @return their message vectors when {@code memory.recall.embedding} is {@code inline}; nothing otherwise (the
     *         background embedder adds them after the write)
     */
    public Map<String, float[]> embedInline(List<TurnRecord> turns) {
        return settings.inlineMessageEmbedding()
                ? TurnMessages.embed(settings.messageEmbeddingModel(), turns)
                : Map.of();
    }
}
