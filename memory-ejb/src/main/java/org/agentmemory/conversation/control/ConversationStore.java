package org.agentmemory.conversation.control;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.Turn;

/**
 * Queries and writes of conversations and turns over a caller-supplied {@link EntityManager}; the caller
 * owns the transaction. Works in the container and in plain Java SE tests alike.
 */
public class ConversationStore {

    private final EntityManager em;
    private Boolean hibernate;

    public ConversationStore(EntityManager em) {
        this.em = em;
    }

    /**
     * @param key  the key
     * @param lock whether to take the row lock that serializes writers of this conversation
     * @return the conversation or {@code null}
     */
    public Conversation findByKey(ConversationKey key, boolean lock) {
        if (lock && isHibernate()) {
            return first(lockQuery("SELECT * FROM conversation WHERE tenant_id = ?1 AND chatbot_key = ?2"
                            + " AND user_id = ?3 AND session_id = ?4 FOR UPDATE")
                    .setParameter(1, key.tenantId())
                    .setParameter(2, Conversation.toKey(key.chatbotId()))
                    .setParameter(3, key.userId())
                    .setParameter(4, key.sessionId())
                    .getResultList());
        }
        TypedQuery<Conversation> query = em.createQuery(
                        "SELECT c FROM Conversation c WHERE c.tenantId = :t"
                                + " AND c.chatbotKey = :b AND c.userId = :u AND c.sessionId = :s",
                        Conversation.class)
                .setParameter("t", key.tenantId())
                .setParameter("b", Conversation.toKey(key.chatbotId()))
                .setParameter("u", key.userId())
                .setParameter("s", key.sessionId());
        if (lock) {
            query.setLockMode(LockModeType.PESSIMISTIC_WRITE);
        }
        return first(query.getResultList());
    }

    /**
     * The writers' row lock is taken with SQL's {@code SELECT … FOR UPDATE} (H2 and PostgreSQL alike) rather than
     * a JPQL query with a pessimistic lock mode: Hibernate 6.6 translates a locking JPQL query to SQL again on
     * every execution, a native one it does not. Other providers take the JPQL path: EclipseLink 4.0 on PostgreSQL
     * reads a native {@code SELECT *} into an entity with a null id (EntityMappingTest's store tests found it).
     */
    private jakarta.persistence.Query lockQuery(String sql) {
        return em.createNativeQuery(sql, Conversation.class);
    }

    /** @return whether the entity manager is Hibernate's (cached per store) */
    private boolean isHibernate() {
        if (hibernate == null) {
            hibernate = em.getDelegate() instanceof org.hibernate.Session;
        }
        return hibernate;
    }

    private static Conversation first(List<?> found) {
        return found.isEmpty() ? null : (Conversation) found.get(0);
    }

    /**
     * @param tenantId the tenant
     * @param id       the conversation id
     * @param lock     whether to take the writers' row lock
     * @return the conversation of that tenant, or {@code null}
     */
    public Conversation find(String tenantId, long id, boolean lock) {
        Conversation c = lock
                ? em.find(Conversation.class, id, LockModeType.PESSIMISTIC_WRITE)
                : em.find(Conversation.class, id);
        return c != null && c.getTenantId().equals(tenantId) ? c : null;
    }

    /** Inserts a new conversation and flushes, so a duplicate key fails here. */
    public Conversation insert(ConversationKey key, Map<String, Object> metadata, Instant now) {
        Conversation c =
                new Conversation(key.tenantId(), key.chatbotId(), key.userId(), key.sessionId(), metadata, now);
        em.persist(c);
        em.flush();
        return c;
    }

    /**
     * @return the stored turn with this id in the conversation, or {@code null}
     */
    public Turn findTurn(Conversation c, String turnId) {
        List<Turn> found = em.createQuery(
                        "SELECT t FROM Turn t WHERE t.conversation = :c AND t.turnId = :id", Turn.class)
                .setParameter("c", c)
                .setParameter("id", turnId)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /**
     * Conversation ids of many keys at once ({@link ConversationBatches#findIdsByKeys}).
     *
     * @param tenantId the tenant of every key
     * @param keys     the keys (their tenant ids are not read)
     * @return key (with {@code tenantId}) → conversation id, for the keys that exist
     */
    public Map<ConversationKey, Long> findIdsByKeys(String tenantId, java.util.Collection<ConversationKey> keys) {
        return batches().findIdsByKeys(tenantId, keys);
    }

    /** Keys looked up by one query of {@link #findIdsByKeys} (3 parameters each). */
    static final int KEYS_PER_QUERY = 256;

    /** Ids locked or looked up by one query of {@link #lockAll} and {@link #existingTurnIds}. */
    static final int IDS_PER_QUERY = 512;

    /**
     * The number of placeholders for a list of {@code n} values: the next power of two (the list padded with its
     * last value), so that a few SQL statements, prepared once each, serve every list size.
     */
    static int paddedSize(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    /**
     * Locks many conversations in ascending id order ({@link ConversationBatches#lockAll(LockedConversations,
     * java.util.Collection)}). Hibernate only.
     *
     * @param into the transaction's locked set, which the rows join
     * @param ids  conversation ids
     * @return id → locked conversation, for the ids that have a row
     */
    public Map<Long, Conversation> lockAll(LockedConversations into, java.util.Collection<Long> ids) {
        return batches().lockAll(into, ids);
    }

    /**
     * Conversations locked by {@link #lockAll(LockedConversations, java.util.Collection, Map)} and which of the turn
     * ids asked about they already hold.
     *
     * @param locked id → locked conversation, for the ids that have a row
     * @param stored conversation id → the subset of its candidate turn ids that is stored (absent: none)
     */
    public record LockedTurnIds(Map<Long, Conversation> locked, Map<Long, java.util.Set<String>> stored) {}

    /**
     * Locks many conversations and finds which candidate turn ids they hold, under the locks
     * ({@link ConversationBatches#lockAll(LockedConversations, java.util.Collection, Map)}). Hibernate only.
     *
     * @param into    the transaction's locked set, which the rows join
     * @param ids     conversation ids
     * @param turnIds the candidate turn ids of each conversation, by conversation id (may be empty)
     * @return the locked conversations and the stored subset of the candidates
     */
    public LockedTurnIds lockAll(
            LockedConversations into,
            java.util.Collection<Long> ids,
            Map<Long, ? extends java.util.Collection<String>> turnIds) {
        return batches().lockAll(into, ids, turnIds);
    }

    /**
     * Which turn ids already exist, for many conversations at once ({@link ConversationBatches#existingTurnIds}).
     *
     * @param turnIds the candidate turn ids of each conversation, by conversation id
     * @return conversation id → the subset of its candidates that is stored
     */
    public Map<Long, java.util.Set<String>> existingTurnIds(Map<Long, ? extends java.util.Collection<String>> turnIds) {
        return batches().existingTurnIds(turnIds);
    }

    /**
     * Finds which of the given turn ids already exist in a conversation ({@link #existingTurnIds(Map)} for one).
     *
     * @param c       the conversation
     * @param turnIds candidate ids
     * @return the subset that is stored
     */
    public java.util.Set<String> existingTurnIds(Conversation c, java.util.Collection<String> turnIds) {
        return existingTurnIds(Map.of(c.getId(), turnIds)).getOrDefault(c.getId(), java.util.Set.of());
    }

    private ConversationBatches batches() {
        return new ConversationBatches(em);
    }

    /**
     * Appends a prepared turn with the next sequence number through the persistence context (portable to any JPA
     * provider; the service itself writes turns in multi-row statements, {@link TurnRows}). The caller holds the
     * conversation's row lock.
     *
     * @param c        the locked conversation
     * @param prepared the turn with ids, text and counts final
     * @param now      the write time
     * @return the new entity (persisted)
     */
    public Turn append(Conversation c, TurnRecord prepared, Instant now) {
        Turn turn = newTurn(c, prepared, now);
        em.persist(turn);
        return turn;
    }

    /**
     * As {@link #append} without persisting the turn: for the bulk writer ({@link TurnRows}). The conversation's
     * sequence advances all the same.
     *
     * @param c        the locked conversation
     * @param prepared the prepared turn
     * @param now      the write time
     * @return the new turn with its invocations, not yet stored
     */
    public Turn newTurn(Conversation c, TurnRecord prepared, Instant now) {
        Turn turn = new Turn(c, c.nextSequence(now));
        TurnMapper.fill(turn, prepared);
        return turn;
    }

    /**
     * The records of a conversation's turns in sequence order ({@link TurnReads}).
     *
     * @param c             the conversation
     * @param afterSequence only turns with a greater sequence
     * @param limit         at most this many, or {@code Integer.MAX_VALUE}
     * @return the records
     */
    public List<TurnRecord> turns(Conversation c, long afterSequence, int limit) {
        return turns(c.getId(), afterSequence, limit);
    }

    /**
     * As {@link #turns(Conversation, long, int)}, by the conversation's id (a conversation found in the caller's
     * tenant).
     *
     * @param conversationId the conversation
     * @param afterSequence  only turns with a greater sequence
     * @param limit          at most this many, or {@code Integer.MAX_VALUE}
     * @return the records
     */
    public List<TurnRecord> turns(long conversationId, long afterSequence, int limit) {
        return new TurnReads(em).turns(conversationId, afterSequence, limit);
    }

    /**
     * @return whether turns with a sequence greater than {@code afterSequence} exist
     */
    public boolean hasTurnsAfter(Conversation c, long afterSequence) {
        return !em.createQuery("SELECT t.id FROM Turn t WHERE t.conversation = :c AND t.seq > :after", Long.class)
                .setParameter("c", c)
                .setParameter("after", afterSequence)
                .setMaxResults(1)
                .getResultList()
                .isEmpty();
    }

    /**
     * Deletes every turn of a conversation (the database cascades to their invocations).
     *
     * @return the number of turns deleted
     */
    public long clear(Conversation c, Instant now) {
        em.flush();
        int deleted = em.createQuery("DELETE FROM Turn t WHERE t.conversation = :c")
                .setParameter("c", c)
                .executeUpdate();
        c.cleared(now);
        return deleted;
    }

    /**
     * Deletes a conversation; the database cascades to its turns, invocations and everything else keyed by it.
     *
     * @return whether it existed
     */
    public boolean delete(String tenantId, long id) {
        em.flush();
        int deleted = em.createQuery("DELETE FROM Conversation c WHERE c.tenantId = :t AND c.id = :id")
                .setParameter("t", tenantId)
                .setParameter("id", id)
                .executeUpdate();
        em.clear();
        return deleted > 0;
    }

    /**
     * Lists conversations newest first (highest id first), keyset-paged.
     *
     * @param tenantId  the tenant
     * @param userId    the user, or {@code null} for all users
     * @param chatbotFilter {@code true} to filter on {@code chatbotId} (where {@code null} is the default agent)
     * @param chatbotId the agent
     * @param beforeId  only ids lower than this ({@code Long.MAX_VALUE} for the first page)
     * @param limit     page size; one more row is read to know whether more follow
     * @return up to {@code limit + 1} conversations
     */
    public List<Conversation> list(
            String tenantId, String userId, boolean chatbotFilter, String chatbotId, long beforeId, int limit) {
        StringBuilder jpql = new StringBuilder("SELECT c FROM Conversation c WHERE c.tenantId = :t AND c.id < :before");
        if (userId != null) {
            jpql.append(" AND c.userId = :u");
        }
        if (chatbotFilter) {
            jpql.append(" AND c.chatbotKey = :b");
        }
        jpql.append(" ORDER BY c.id DESC");
        TypedQuery<Conversation> q = em.createQuery(jpql.toString(), Conversation.class)
                .setParameter("t", tenantId)
                .setParameter("before", beforeId)
                .setMaxResults(limit + 1);
        if (userId != null) {
            q.setParameter("u", userId);
        }
        if (chatbotFilter) {
            q.setParameter("b", Conversation.toKey(chatbotId));
        }
        return q.getResultList();
    }

    /**
     * @return {conversations, turns, distinct users} of one agent in a tenant
     */
    public long[] chatbotCounts(String tenantId, String chatbotId) {
        Object[] row = em.createQuery(
                        "SELECT COUNT(c), COALESCE(SUM(c.turnCount), 0), COUNT(DISTINCT c.userId)"
                                + " FROM Conversation c WHERE c.tenantId = :t AND c.chatbotKey = :b",
                        Object[].class)
                .setParameter("t", tenantId)
                .setParameter("b", Conversation.toKey(chatbotId))
                .getSingleResult();
        return new long[] {((Number) row[0]).longValue(), ((Number) row[1]).longValue(), ((Number) row[2]).longValue()};
    }

    /**
     * Distinct users of one agent in ascending order, keyset-paged.
     *
     * @param afterUserId only users sorting after this one, or {@code null} for the first page
     * @param limit       page size; one more is read
     * @return up to {@code limit + 1} user ids
     */
    public List<String> chatbotUsers(String tenantId, String chatbotId, String afterUserId, int limit) {
        String jpql = "SELECT DISTINCT c.userId FROM Conversation c WHERE c.tenantId = :t AND c.chatbotKey = :b"
                + (afterUserId == null ? "" : " AND c.userId > :after") + " ORDER BY c.userId";
        TypedQuery<String> q = em.createQuery(jpql, String.class)
                .setParameter("t", tenantId)
                .setParameter("b", Conversation.toKey(chatbotId))
                .setMaxResults(limit + 1);
        if (afterUserId != null) {
            q.setParameter("after", afterUserId);
        }
        return q.getResultList();
    }
}
