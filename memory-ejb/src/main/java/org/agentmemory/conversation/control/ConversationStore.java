package org.agentmemory.conversation.control;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.TypedQuery;

import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.ToolInvocation;
import org.agentmemory.conversation.entity.Turn;

/**
 * Queries and writes of conversations and turns over a caller-supplied {@link EntityManager}; the caller
 * owns the transaction. Works in the container and in plain Java SE tests alike.
 */
public class ConversationStore {

    private final EntityManager em;

    public ConversationStore(EntityManager em) {
        this.em = em;
    }

    /**
     * @param key  the key
     * @param lock whether to take the row lock that serializes writers of this conversation
     * @return the conversation or {@code null}
     */
    public Conversation findByKey(ConversationKey key, boolean lock) {
        if (lock) {
            return first(lockQuery("SELECT * FROM conversation WHERE tenant_id = ?1 AND chatbot_key = ?2"
                    + " AND user_id = ?3 AND session_id = ?4 FOR UPDATE")
                    .setParameter(1, key.tenantId())
                    .setParameter(2, Conversation.toKey(key.chatbotId()))
                    .setParameter(3, key.userId())
                    .setParameter(4, key.sessionId())
                    .getResultList());
        }
        return first(em.createQuery("SELECT c FROM Conversation c WHERE c.tenantId = :t"
                + " AND c.chatbotKey = :b AND c.userId = :u AND c.sessionId = :s", Conversation.class)
                .setParameter("t", key.tenantId())
                .setParameter("b", Conversation.toKey(key.chatbotId()))
                .setParameter("u", key.userId())
                .setParameter("s", key.sessionId())
                .getResultList());
    }

    /**
     * The writers' row lock is taken with SQL's {@code SELECT … FOR UPDATE} (H2 and PostgreSQL alike) rather than
     * a JPQL query with a pessimistic lock mode: Hibernate 6.6 translates a locking JPQL query to SQL again on
     * every execution (measured: 6 % of an {@code addTurn}'s CPU), a native one it does not.
     */
    private jakarta.persistence.Query lockQuery(String sql) {
        return em.createNativeQuery(sql, Conversation.class);
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
        Conversation c = lock ? em.find(Conversation.class, id, LockModeType.PESSIMISTIC_WRITE)
                : em.find(Conversation.class, id);
        return c != null && c.getTenantId().equals(tenantId) ? c : null;
    }

    /** Inserts a new conversation and flushes, so a duplicate key fails here. */
    public Conversation insert(ConversationKey key, Map<String, Object> metadata, Instant now) {
        Conversation c = new Conversation(key.tenantId(), key.chatbotId(), key.userId(), key.sessionId(), metadata, now);
        em.persist(c);
        em.flush();
        return c;
    }

    /**
     * @return the stored turn with this id in the conversation, or {@code null}
     */
    public Turn findTurn(Conversation c, String turnId) {
        List<Turn> found = em.createQuery("SELECT t FROM Turn t WHERE t.conversation = :c AND t.turnId = :id", Turn.class)
                .setParameter("c", c).setParameter("id", turnId).getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /**
     * Finds the ids of many conversations of one tenant by key, with one SQL query per {@value #KEYS_PER_QUERY}
     * keys (no lock, nothing loaded into the persistence context). The keys are joined as a {@code VALUES} list,
     * so the database looks each one up in the unique key index whatever its statistics say (an {@code IN} list
     * per column, or an {@code OR} of keys, was planned as a scan of the whole table on PostgreSQL, or took
     * milliseconds to plan). SQL rather than JPQL: Hibernate 6.6 translates a query with a list parameter again on
     * every execution.
     *
     * @param tenantId the tenant of every key
     * @param keys     the keys (their tenant ids are not read)
     * @return key (with {@code tenantId}) → conversation id, for the keys that exist
     */
    public Map<ConversationKey, Long> findIdsByKeys(String tenantId, java.util.Collection<ConversationKey> keys) {
        Map<ConversationKey, Long> found = new HashMap<>();
        List<ConversationKey> all = new ArrayList<>(new java.util.LinkedHashSet<>(keys));
        for (int from = 0; from < all.size(); from += KEYS_PER_QUERY) {
            List<ConversationKey> chunk = all.subList(from, Math.min(all.size(), from + KEYS_PER_QUERY));
            int slots = paddedSize(chunk.size());
            StringBuilder sql = values(new StringBuilder("SELECT c.id, c.chatbot_key, c.user_id, c.session_id"
                    + " FROM conversation c JOIN "), 2, slots, "VARCHAR(512)", "VARCHAR(512)", "VARCHAR(512)");
            sql.append(" AS k(chatbot_key, user_id, session_id) ON c.chatbot_key = k.chatbot_key"
                    + " AND c.user_id = k.user_id AND c.session_id = k.session_id WHERE c.tenant_id = ?1");
            jakarta.persistence.Query q = em.createNativeQuery(sql.toString());
            q.setParameter(1, tenantId);
            bindRows(q, 2, slots, chunk.stream().map(key -> new Object[] {Conversation.toKey(key.chatbotId()),
                    key.userId(), key.sessionId()}).toList());
            for (Object result : q.getResultList()) {
                Object[] row = (Object[]) result;
                String chatbotKey = (String) row[1];
                found.put(new ConversationKey(tenantId,
                        Conversation.DEFAULT_CHATBOT_KEY.equals(chatbotKey) ? null : chatbotKey,
                        (String) row[2], (String) row[3]), ((Number) row[0]).longValue());
            }
        }
        return found;
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
     * Appends a {@code VALUES} list of {@code rows} rows of positional parameters numbered from {@code from}, each
     * cast to its column's type (H2 cannot type a bare parameter in a {@code VALUES} list).
     */
    private static StringBuilder values(StringBuilder sql, int from, int rows, String... columnTypes) {
        return values(sql, from, rows, true, columnTypes);
    }

    /** As {@link #values(StringBuilder, int, int, String...)}, with JDBC's plain {@code ?} unless {@code numbered}. */
    private static StringBuilder values(StringBuilder sql, int from, int rows, boolean numbered, String... columnTypes) {
        sql.append("(VALUES ");
        int p = from;
        for (int r = 0; r < rows; r++) {
            sql.append(r == 0 ? "(" : ", (");
            for (int c = 0; c < columnTypes.length; c++) {
                sql.append(c == 0 ? "" : ", ").append("CAST(?");
                if (numbered) {
                    sql.append(p);
                }
                p++;
                sql.append(" AS ").append(columnTypes[c]).append(')');
            }
            sql.append(')');
        }
        return sql.append(')');
    }

    /** Binds {@code rows} (padded to {@code slots} with the last one) to the parameters of {@link #values}. */
    private static jakarta.persistence.Query bindRows(jakarta.persistence.Query q, int from, int slots,
            List<Object[]> rows) {
        int p = from;
        for (int r = 0; r < slots; r++) {
            for (Object value : rows.get(Math.min(r, rows.size() - 1))) {
                q.setParameter(p++, value);
            }
        }
        return q;
    }

    /** Appends {@code ?from, ?from+1, …} for {@code count} positional parameters. */
    private static StringBuilder placeholders(StringBuilder sql, int from, int count) {
        for (int i = 0; i < count; i++) {
            sql.append(i == 0 ? "?" : ", ?").append(from + i);
        }
        return sql;
    }

    /**
     * Takes the writers' row locks of many conversations in ascending id order (a fixed order, so concurrent
     * batches cannot deadlock) and reads them afresh, in plain JDBC on the transaction's connection
     * ({@link LockedConversations}: the conversations are detached, and their changes are written back by
     * {@link LockedConversations#write}, not by a flush). Hibernate only.
     *
     * @param into the transaction's locked set, which the rows join
     * @param ids  conversation ids
     * @return id → locked conversation, for the ids that have a row
     */
    public Map<Long, Conversation> lockAll(LockedConversations into, java.util.Collection<Long> ids) {
        EntityMappings mappings = new EntityMappings(em);
        return em.unwrap(org.hibernate.Session.class).doReturningWork(con -> into.lock(con, ids, mappings));
    }

    /**
     * Conversations locked by {@link #lockAll(LockedConversations, java.util.Collection, Map)} and which of the turn
     * ids asked about they already hold.
     *
     * @param locked id → locked conversation, for the ids that have a row
     * @param stored conversation id → the subset of its candidate turn ids that is stored (absent: none)
     */
    public record LockedTurnIds(Map<Long, Conversation> locked, Map<Long, java.util.Set<String>> stored) {
    }

    /**
     * {@link #lockAll(LockedConversations, java.util.Collection)}, then {@link #existingTurnIds(Map)} under the locks:
     * on PostgreSQL in one round trip when the (conversation, turn id) pairs fit one query
     * ({@link LockedConversations#lock(java.sql.Connection, java.util.Collection, LockedConversations.InstantReader,
     * LockedConversations.FollowingQuery)}). Hibernate only.
     *
     * @param into    the transaction's locked set, which the rows join
     * @param ids     conversation ids
     * @param turnIds the candidate turn ids of each conversation, by conversation id (may be empty)
     * @return the locked conversations and the stored subset of the candidates
     */
    public LockedTurnIds lockAll(LockedConversations into, java.util.Collection<Long> ids,
            Map<Long, ? extends java.util.Collection<String>> turnIds) {
        List<Object[]> pairs = pairs(turnIds);
        if (pairs.size() > IDS_PER_QUERY) {
            Map<Long, Conversation> locked = lockAll(into, ids);
            return new LockedTurnIds(locked, existingTurnIds(pairs));
        }
        org.hibernate.Session session = em.unwrap(org.hibernate.Session.class);
        if (session.isDirty()) {
            session.flush();
        }
        Map<Long, java.util.Set<String>> found = new HashMap<>();
        EntityMappings mappings = new EntityMappings(em);
        Map<Long, Conversation> locked = session.doReturningWork(con -> into.lock(con, ids, mappings,
                pairs.isEmpty() ? null : existingTurnIdsQuery(pairs, found)));
        return new LockedTurnIds(locked, found);
    }

    /** The distinct (conversation id, turn id) pairs of candidates, in order. */
    private static List<Object[]> pairs(Map<Long, ? extends java.util.Collection<String>> turnIds) {
        List<Object[]> pairs = new ArrayList<>();
        turnIds.forEach((c, ids) -> new java.util.LinkedHashSet<>(ids).forEach(id -> pairs.add(new Object[] {c, id})));
        return pairs;
    }

    /** {@link #existingTurnIds(Map)}' query for at most {@value #IDS_PER_QUERY} pairs, adding what it finds to {@code found}. */
    private static LockedConversations.FollowingQuery existingTurnIdsQuery(List<Object[]> pairs,
            Map<Long, java.util.Set<String>> found) {
        int slots = paddedSize(pairs.size());
        String sql = existingTurnIdsSql(slots, false);
        return new LockedConversations.FollowingQuery() {
            @Override
            public String sql() {
                return sql;
            }

            @Override
            public void bind(java.sql.PreparedStatement ps, int first) throws java.sql.SQLException {
                bindPairs(ps, first, slots, pairs);
            }

            @Override
            public void read(java.sql.ResultSet rs) throws java.sql.SQLException {
                while (rs.next()) {
                    found.computeIfAbsent(rs.getLong(1), k -> new java.util.HashSet<>()).add(rs.getString(2));
                }
            }
        };
    }

    /** The query of {@link #existingTurnIds(Map)} for {@code slots} pairs, with numbered or plain parameters. */
    private static String existingTurnIdsSql(int slots, boolean numbered) {
        StringBuilder sql = values(new StringBuilder("SELECT t.conversation_id, t.turn_id FROM turn t JOIN "), 1,
                slots, numbered, "BIGINT", "VARCHAR(512)");
        return sql.append(" AS k(conversation_id, turn_id) ON t.conversation_id = k.conversation_id"
                + " AND t.turn_id = k.turn_id").toString();
    }

    /** Binds {@code slots} (conversation id, turn id) pairs from {@code first}, the list padded with its last pair. */
    private static void bindPairs(java.sql.PreparedStatement ps, int first, int slots, List<Object[]> chunk)
            throws java.sql.SQLException {
        int p = first;
        for (int r = 0; r < slots; r++) {
            Object[] pair = chunk.get(Math.min(r, chunk.size() - 1));
            ps.setLong(p++, (Long) pair[0]);
            ps.setString(p++, (String) pair[1]);
        }
    }

    /**
     * Finds which turn ids already exist, for many conversations at once, with one SQL query per
     * {@value #IDS_PER_QUERY} (conversation, turn id) pairs, joined as a {@code VALUES} list so that each pair is
     * looked up in the unique index (see {@link #findIdsByKeys}: an {@code IN} list of conversations and one of
     * turn ids was planned as a scan of the whole turn table on PostgreSQL when the same turn ids occur in many
     * conversations, 200 ms per query at 170,000 turns).
     *
     * @param turnIds the candidate turn ids of each conversation, by conversation id
     * @return conversation id → the subset of its candidates that is stored
     */
    public Map<Long, java.util.Set<String>> existingTurnIds(Map<Long, ? extends java.util.Collection<String>> turnIds) {
        return existingTurnIds(pairs(turnIds));
    }

    /** {@link #existingTurnIds(Map)} for the candidates listed as distinct (conversation id, turn id) pairs. */
    private Map<Long, java.util.Set<String>> existingTurnIds(List<Object[]> pairs) {
        Map<Long, java.util.Set<String>> found = new HashMap<>();
        if (pairs.isEmpty()) {
            return found;
        }
        org.hibernate.Session session = hibernate();
        if (session != null && session.isDirty()) {
            session.flush();
        }
        for (int from = 0; from < pairs.size(); from += IDS_PER_QUERY) {
            List<Object[]> chunk = pairs.subList(from, Math.min(pairs.size(), from + IDS_PER_QUERY));
            int slots = paddedSize(chunk.size());
            String sql = existingTurnIdsSql(slots, session == null);
            List<?> rows = session == null ? bindRows(em.createNativeQuery(sql), 1, slots, chunk).getResultList()
                    : pairsByJdbc(session, sql, slots, chunk);
            for (Object result : rows) {
                Object[] row = (Object[]) result;
                found.computeIfAbsent(((Number) row[0]).longValue(), k -> new java.util.HashSet<>())
                        .add((String) row[1]);
            }
        }
        return found;
    }

    /**
     * Runs {@link #existingTurnIds}' statement in plain JDBC on the transaction's connection: the same SQL without the
     * native query's result processing (issue 2's addTurn benchmark, JFR: 6.6 → 2.5 % of the request thread's
     * samples).
     *
     * @return (conversation id, turn id) rows
     */
    private static List<Object[]> pairsByJdbc(org.hibernate.Session session, String sql, int slots,
            List<Object[]> chunk) {
        return session.doReturningWork(con -> {
            List<Object[]> rows = new ArrayList<>();
            try (java.sql.PreparedStatement ps = con.prepareStatement(sql)) {
                bindPairs(ps, 1, slots, chunk);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new Object[] {rs.getLong(1), rs.getString(2)});
                    }
                }
            }
            return rows;
        });
    }

    /** @return the Hibernate session of the entity manager, or {@code null} under another provider */
    private org.hibernate.Session hibernate() {
        try {
            return em.unwrap(org.hibernate.Session.class);
        } catch (jakarta.persistence.PersistenceException e) {
            return null;
        }
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

    /** The columns of a turn read by {@link #turns}, in the order {@link TurnMapper#turn} expects them. */
    private static final String TURN_COLUMNS = "t.id, t.seq, t.turn_id, t.user_id, t.chatbot_id, t.user_message,"
            + " t.assistant_response, t.context_used, t.tools_used, t.occurred_at, t.metadata, t.error, t.tokens_user,"
            + " t.tokens_assistant, t.tokens_tools, t.tokens_total, t.tokenizer, t.state, t.schema_version,"
            + " t.norm_version";

    /**
     * Reads turns in sequence order with their invocations, in two queries whatever the number of turns.
     * Under Hibernate the queries run on the transaction's connection in plain JDBC (after flushing pending entity
     * changes, as a query through the persistence context would), decoding columns as the entities' mappings do
     * (their JSON converters, {@link EntityMappings#read} for the instant): nothing is registered in the
     * persistence context, and the rows skip the ORM's result processing (measured on 2 cores: reading the rows of
     * a 1,000-turn history took about a quarter less CPU; issue 2's getHistory benchmark). Other providers select
     * the same columns in JPQL.
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
        org.hibernate.Session session = hibernate();
        if (session == null) {
            return turnsByQuery(conversationId, afterSequence, limit);
        }
        if (session.isDirty()) {
            session.flush();
        }
        EntityMappings mappings = new EntityMappings(em);
        return session.doReturningWork(con -> {
            List<Object[]> turns = new ArrayList<>();
            try (java.sql.PreparedStatement ps = con.prepareStatement("SELECT " + TURN_COLUMNS
                    + " FROM turn t WHERE t.conversation_id = ? AND t.seq > ? ORDER BY t.seq")) {
                ps.setLong(1, conversationId);
                ps.setLong(2, afterSequence);
                if (limit != Integer.MAX_VALUE) {
                    ps.setMaxRows(limit);
                }
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        turns.add(turnRow(rs, mappings));
                    }
                }
            }
            if (turns.isEmpty()) {
                return List.of();
            }
            // The invocations of exactly the turns read, by their primary keys: one index scan of
            // (turn_pk, ordinal) in key order, with no join back to the turn table and no sort. Joining on
            // (conversation_id, seq) instead took 8 ms for 1,000 turns on PostgreSQL (a nested loop, then an
            // incremental sort), and with fresh statistics the planner chose a parallel plan of 18 ms.
            Long[] turnPks = new Long[turns.size()];
            for (int i = 0; i < turnPks.length; i++) {
                turnPks[i] = (Long) turns.get(i)[0];
            }
            Map<Long, List<ToolInvocationRecord>> byTurn = new HashMap<>();
            java.sql.Array pks = con.createArrayOf("BIGINT", turnPks);
            try (java.sql.PreparedStatement ps = con.prepareStatement("SELECT i.turn_pk, i.tool_name, i.input,"
                    + " i.output, i.status, i.error, i.elapsed_ms, i.output_chars, i.omitted, i.wm_key"
                    + " FROM tool_invocation i WHERE i.turn_pk = ANY(?) ORDER BY i.turn_pk, i.ordinal")) {
                ps.setArray(1, pks);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Object[] row = invocationRow(rs);
                        byTurn.computeIfAbsent((Long) row[0], k -> new ArrayList<>()).add(TurnMapper.invocation(row));
                    }
                }
            } finally {
                pks.free();
            }
            return records(turns, byTurn);
        });
    }

    /** {@link #turns} through the persistence context: the same columns selected in JPQL (any provider). */
    private List<TurnRecord> turnsByQuery(long conversationId, long afterSequence, int limit) {
        TypedQuery<Object[]> q = em.createQuery("SELECT t.id, t.seq, t.turnId, t.userId, t.chatbotId, t.userMessage,"
                + " t.assistantResponse, t.contextUsed, t.toolsUsed, t.occurredAt, t.metadata, t.error, t.tokensUser,"
                + " t.tokensAssistant, t.tokensTools, t.tokensTotal, t.tokenizer, t.state, t.schemaVersion, t.normVersion"
                + " FROM Turn t WHERE t.conversation.id = :c AND t.seq > :after ORDER BY t.seq", Object[].class)
                .setParameter("c", conversationId).setParameter("after", afterSequence);
        if (limit != Integer.MAX_VALUE) {
            q.setMaxResults(limit);
        }
        List<Object[]> turns = q.getResultList();
        if (turns.isEmpty()) {
            return List.of();
        }
        long first = (Long) turns.get(0)[1];
        long last = (Long) turns.get(turns.size() - 1)[1];
        List<Object[]> invocations = em.createQuery("SELECT t.id, i.toolName, i.input, i.output, i.status, i.error,"
                + " i.elapsedMs, i.outputChars, i.omitted, i.wmKey FROM ToolInvocation i JOIN i.turn t"
                + " WHERE t.conversation.id = :c AND t.seq BETWEEN :first AND :last ORDER BY t.seq, i.ordinal",
                Object[].class).setParameter("c", conversationId).setParameter("first", first).setParameter("last", last).getResultList();
        Map<Long, List<ToolInvocationRecord>> byTurn = new HashMap<>();
        for (Object[] row : invocations) {
            byTurn.computeIfAbsent((Long) row[0], k -> new ArrayList<>()).add(TurnMapper.invocation(row));
        }
        return records(turns, byTurn);
    }

    private static List<TurnRecord> records(List<Object[]> turns, Map<Long, List<ToolInvocationRecord>> byTurn) {
        List<TurnRecord> records = new ArrayList<>(turns.size());
        for (Object[] row : turns) {
            records.add(TurnMapper.turn(row, byTurn.getOrDefault((Long) row[0], List.of())));
        }
        return records;
    }

    /** @return the current row of {@link #TURN_COLUMNS}, converted as the {@link Turn} mapping converts them */
    private static Object[] turnRow(java.sql.ResultSet rs, EntityMappings mappings) throws java.sql.SQLException {
        return new Object[] {rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
            rs.getString(6), rs.getString(7), rs.getString(8), TurnRows.STRING_LIST.convertToEntityAttribute(rs.getString(9)),
            mappings.read(rs, 10), TurnRows.OBJECT.convertToEntityAttribute(rs.getString(11)),
            rs.getString(12), rs.getInt(13), rs.getInt(14), rs.getInt(15), rs.getInt(16), rs.getString(17),
            rs.getString(18), rs.getInt(19), rs.getString(20)};
    }

    /** @return the current invocation row of {@link #turns}, converted as the {@link ToolInvocation} mapping does */
    private static Object[] invocationRow(java.sql.ResultSet rs) throws java.sql.SQLException {
        long elapsed = rs.getLong(7);
        Long elapsedMs = rs.wasNull() ? null : elapsed;
        int chars = rs.getInt(8);
        Integer outputChars = rs.wasNull() ? null : chars;
        return new Object[] {rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
            rs.getString(6), elapsedMs, outputChars, TurnRows.STRING_MAP.convertToEntityAttribute(rs.getString(9)),
            rs.getString(10)};
    }

    /**
     * @return whether turns with a sequence greater than {@code afterSequence} exist
     */
    public boolean hasTurnsAfter(Conversation c, long afterSequence) {
        return !em.createQuery("SELECT t.id FROM Turn t WHERE t.conversation = :c AND t.seq > :after", Long.class)
                .setParameter("c", c).setParameter("after", afterSequence).setMaxResults(1).getResultList().isEmpty();
    }

    /**
     * Deletes every turn of a conversation (the database cascades to their invocations).
     *
     * @return the number of turns deleted
     */
    public long clear(Conversation c, Instant now) {
        em.flush();
        int deleted = em.createQuery("DELETE FROM Turn t WHERE t.conversation = :c").setParameter("c", c).executeUpdate();
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
                .setParameter("t", tenantId).setParameter("id", id).executeUpdate();
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
    public List<Conversation> list(String tenantId, String userId, boolean chatbotFilter, String chatbotId,
            long beforeId, int limit) {
        StringBuilder jpql = new StringBuilder("SELECT c FROM Conversation c WHERE c.tenantId = :t AND c.id < :before");
        if (userId != null) {
            jpql.append(" AND c.userId = :u");
        }
        if (chatbotFilter) {
            jpql.append(" AND c.chatbotKey = :b");
        }
        jpql.append(" ORDER BY c.id DESC");
        TypedQuery<Conversation> q = em.createQuery(jpql.toString(), Conversation.class)
                .setParameter("t", tenantId).setParameter("before", beforeId).setMaxResults(limit + 1);
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
        Object[] row = em.createQuery("SELECT COUNT(c), COALESCE(SUM(c.turnCount), 0), COUNT(DISTINCT c.userId)"
                + " FROM Conversation c WHERE c.tenantId = :t AND c.chatbotKey = :b", Object[].class)
                .setParameter("t", tenantId).setParameter("b", Conversation.toKey(chatbotId)).getSingleResult();
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
                .setParameter("t", tenantId).setParameter("b", Conversation.toKey(chatbotId)).setMaxResults(limit + 1);
        if (afterUserId != null) {
            q.setParameter("after", afterUserId);
        }
        return q.getResultList();
    }
}
