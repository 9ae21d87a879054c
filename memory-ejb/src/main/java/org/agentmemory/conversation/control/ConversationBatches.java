package org.agentmemory.conversation.control;

import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.conversation.entity.Conversation;

/**
 * Queries over many conversations at once, for batches of writes: their ids by key, their row locks in one
 * statement, and which of many candidate turn ids they already hold. Keys and pairs are joined as {@code VALUES}
 * lists padded to a power of two ({@link ConversationStore#paddedSize}), so a few prepared statements serve every
 * batch size and every row is looked up in its unique index. Over a caller-supplied {@link EntityManager}.
 */
final class ConversationBatches {

    private static final int KEYS_PER_QUERY = ConversationStore.KEYS_PER_QUERY;
    private static final int IDS_PER_QUERY = ConversationStore.IDS_PER_QUERY;

    private final EntityManager em;

    ConversationBatches(EntityManager em) {
        this.em = em;
    }

    private static int paddedSize(int n) {
        return ConversationStore.paddedSize(n);
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
    Map<ConversationKey, Long> findIdsByKeys(String tenantId, java.util.Collection<ConversationKey> keys) {
        Map<ConversationKey, Long> found = new HashMap<>();
        List<ConversationKey> all = new ArrayList<>(new java.util.LinkedHashSet<>(keys));
        for (int from = 0; from < all.size(); from += KEYS_PER_QUERY) {
            List<ConversationKey> chunk = all.subList(from, Math.min(all.size(), from + KEYS_PER_QUERY));
            int slots = paddedSize(chunk.size());
            StringBuilder sql = values(
                    new StringBuilder(
                            "SELECT c.id, c.chatbot_key, c.user_id, c.session_id" + " FROM conversation c JOIN "),
                    2,
                    slots,
                    "VARCHAR(512)",
                    "VARCHAR(512)",
                    "VARCHAR(512)");
            sql.append(" AS k(chatbot_key, user_id, session_id) ON c.chatbot_key = k.chatbot_key"
                    + " AND c.user_id = k.user_id AND c.session_id = k.session_id WHERE c.tenant_id = ?1");
            jakarta.persistence.Query q = em.createNativeQuery(sql.toString());
            q.setParameter(1, tenantId);
            bindRows(
                    q,
                    2,
                    slots,
                    chunk.stream()
                            .map(key ->
                                    new Object[] {Conversation.toKey(key.chatbotId()), key.userId(), key.sessionId()})
                            .toList());
            for (Object result : q.getResultList()) {
                Object[] row = (Object[]) result;
                String chatbotKey = (String) row[1];
                found.put(
                        new ConversationKey(
                                tenantId,
                                Conversation.DEFAULT_CHATBOT_KEY.equals(chatbotKey) ? null : chatbotKey,
                                (String) row[2],
                                (String) row[3]),
                        ((Number) row[0]).longValue());
            }
        }
        return found;
    }

    /**
     * Appends a {@code VALUES} list of {@code rows} rows of positional parameters numbered from {@code from}, each
     * cast to its column's type (H2 cannot type a bare parameter in a {@code VALUES} list).
     */
    private static StringBuilder values(StringBuilder sql, int from, int rows, String... columnTypes) {
        return values(sql, from, rows, true, columnTypes);
    }

    /** As {@link #values(StringBuilder, int, int, String...)}, with JDBC's plain {@code ?} unless {@code numbered}. */
    private static StringBuilder values(
            StringBuilder sql, int from, int rows, boolean numbered, String... columnTypes) {
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
    private static jakarta.persistence.Query bindRows(
            jakarta.persistence.Query q, int from, int slots, List<Object[]> rows) {
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
    Map<Long, Conversation> lockAll(LockedConversations into, java.util.Collection<Long> ids) {
        EntityMappings mappings = new EntityMappings(em);
        return em.unwrap(org.hibernate.Session.class).doReturningWork(con -> into.lock(con, ids, mappings));
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
    ConversationStore.LockedTurnIds lockAll(
            LockedConversations into,
            java.util.Collection<Long> ids,
            Map<Long, ? extends java.util.Collection<String>> turnIds) {
        List<Object[]> pairs = pairs(turnIds);
        if (pairs.size() > IDS_PER_QUERY) {
            Map<Long, Conversation> locked = lockAll(into, ids);
            return new ConversationStore.LockedTurnIds(locked, existingTurnIds(pairs));
        }
        org.hibernate.Session session = em.unwrap(org.hibernate.Session.class);
        if (session.isDirty()) {
            session.flush();
        }
        Map<Long, java.util.Set<String>> found = new HashMap<>();
        EntityMappings mappings = new EntityMappings(em);
        Map<Long, Conversation> locked = session.doReturningWork(
                con -> into.lock(con, ids, mappings, pairs.isEmpty() ? null : existingTurnIdsQuery(pairs, found)));
        return new ConversationStore.LockedTurnIds(locked, found);
    }

    /** The distinct (conversation id, turn id) pairs of candidates, in order. */
    private static List<Object[]> pairs(Map<Long, ? extends java.util.Collection<String>> turnIds) {
        List<Object[]> pairs = new ArrayList<>();
        turnIds.forEach((c, ids) -> new java.util.LinkedHashSet<>(ids).forEach(id -> pairs.add(new Object[] {c, id})));
        return pairs;
    }

    /** {@link #existingTurnIds(Map)}' query for at most {@value #IDS_PER_QUERY} pairs, adding what it finds to {@code found}. */
    private static LockedConversations.FollowingQuery existingTurnIdsQuery(
            List<Object[]> pairs, Map<Long, java.util.Set<String>> found) {
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
                    found.computeIfAbsent(rs.getLong(1), k -> new java.util.HashSet<>())
                            .add(rs.getString(2));
                }
            }
        };
    }

    /** The query of {@link #existingTurnIds(Map)} for {@code slots} pairs, with numbered or plain parameters. */
    private static String existingTurnIdsSql(int slots, boolean numbered) {
        StringBuilder sql = values(
                new StringBuilder("SELECT t.conversation_id, t.turn_id FROM turn t JOIN "),
                1,
                slots,
                numbered,
                "BIGINT",
                "VARCHAR(512)");
        return sql.append(" AS k(conversation_id, turn_id) ON t.conversation_id = k.conversation_id"
                        + " AND t.turn_id = k.turn_id")
                .toString();
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
     * conversations).
     *
     * @param turnIds the candidate turn ids of each conversation, by conversation id
     * @return conversation id → the subset of its candidates that is stored
     */
    Map<Long, java.util.Set<String>> existingTurnIds(Map<Long, ? extends java.util.Collection<String>> turnIds) {
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
            List<?> rows = session == null
                    ? bindRows(em.createNativeQuery(sql), 1, slots, chunk).getResultList()
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
     * native query's result processing (docs/decisions/0003-bulk-writes-in-jdbc.md).
     *
     * @return (conversation id, turn id) rows
     */
    private static List<Object[]> pairsByJdbc(
            org.hibernate.Session session, String sql, int slots, List<Object[]> chunk) {
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
}
