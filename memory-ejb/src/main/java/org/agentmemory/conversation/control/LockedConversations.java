package org.agentmemory.conversation.control;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.agentmemory.conversation.entity.Conversation;

/**
 * Conversation rows locked by the writers of a batch ({@code SELECT … FOR UPDATE}) and written back, in plain JDBC on
 * the transaction's connection, as {@link TurnRows} writes the turns of the same batch. The conversations are
 * detached ({@link Conversation#restore}): their changes (sequence, turn count, update time, metadata) are written by
 * {@link #write}, never by a flush, and only for rows that changed; each written row's version goes up by one, as the
 * entity's {@code @Version} does on a flush.
 *
 * <p>Why: locking the rows through a native query with an entity result, then updating them in the flush, builds the
 * result mapping again for every execution, hydrates and snapshots the row, and dirty-checks it in the flush. Here
 * a row is read once and written with one batched statement (docs/decisions/0003-bulk-writes-in-jdbc.md).
 *
 * <p>Rows are locked in ascending id order (one statement per {@value #IDS_PER_QUERY} ids; the id list padded to a
 * power of two, so that a few statements, prepared once per connection, serve every batch), the order the other
 * locking paths use, so concurrent batches cannot deadlock. Not thread-safe: one instance per transaction. No
 * container types.
 */
public final class LockedConversations {

    /** Reads an instant column the way the entities' mapping does ({@link EntityMappings#read}). */
    @FunctionalInterface
    public interface InstantReader {

        /**
         * @param rs    a result set on its current row
         * @param index the column index
         * @return the instant, or {@code null} for SQL {@code NULL}
         * @throws SQLException as the driver reports it
         */
        Instant read(ResultSet rs, int index) throws SQLException;
    }

    /** Ids locked by one statement. */
    static final int IDS_PER_QUERY = ConversationStore.IDS_PER_QUERY;

    static final String COLUMNS = "id, tenant_id, chatbot_key, user_id, session_id, created_at, updated_at, metadata,"
            + " last_seq, turn_count, version";

    static final String UPDATE = "UPDATE conversation SET updated_at = ?, last_seq = ?, turn_count = ?,"
            + " version = version + 1 WHERE id = ?";

    static final String UPDATE_WITH_METADATA = "UPDATE conversation SET updated_at = ?, last_seq = ?, turn_count = ?,"
            + " metadata = ?, version = version + 1 WHERE id = ?";

    /** A locked row as read: what {@link #write} compares the conversation with. */
    private record AsRead(
            Conversation conversation, Instant updatedAt, long lastSeq, long turnCount, Map<String, Object> metadata) {

        boolean changed() {
            return conversation.getLastSeq() != lastSeq
                    || conversation.getTurnCount() != turnCount
                    || !java.util.Objects.equals(conversation.getUpdatedAt(), updatedAt)
                    || metadataChanged();
        }

        /** {@link Conversation#setMetadata} always installs a new map. */
        boolean metadataChanged() {
            return conversation.getMetadata() != metadata;
        }
    }

    private final Map<Long, AsRead> rows = new LinkedHashMap<>();
    private boolean written;

    /**
     * A query that runs right after the rows are locked, under their locks: on PostgreSQL in the same round trip
     * as the lock ({@link #lock(Connection, Collection, InstantReader, FollowingQuery)}).
     */
    public interface FollowingQuery {

        /** @return one {@code SELECT} command, without a trailing semicolon, with {@code ?} parameters */
        String sql();

        /**
         * @param ps    the statement, of one or two commands
         * @param first the index of this query's first parameter
         * @throws SQLException as the driver reports it
         */
        void bind(PreparedStatement ps, int first) throws SQLException;

        /**
         * @param rs the query's result, before its first row; the caller closes it
         * @throws SQLException as the driver reports it
         */
        void read(ResultSet rs) throws SQLException;
    }

    /**
     * Locks rows by id and adds them to this set; ids without a row are skipped, ids already here are not read
     * again.
     *
     * @param con      the transaction's connection
     * @param ids      conversation ids
     * @param instants reads {@code created_at} and {@code updated_at} as the mapping does
     * @return id → the locked conversation, for the ids of this call that have a row
     * @throws SQLException as the driver reports it (a lock timeout, say)
     * @throws IllegalStateException after {@link #write}
     */
    public Map<Long, Conversation> lock(Connection con, Collection<Long> ids, InstantReader instants)
            throws SQLException {
        return lock(con, ids, instants, null);
    }

    /**
     * As {@link #lock(Connection, Collection, InstantReader)}, then runs {@code then} under the locks. On
     * PostgreSQL, when the ids fit one locking statement, both commands go in one prepared statement, which the
     * driver sends in one round trip and the server runs in order, so the query still sees what the last holder
     * of a lock committed: a group-committed {@code addTurn} batch locked its conversations and asked which of its
     * turn ids they already hold in two round trips, each a wait of the batch's writer while other calls queue
     * behind it. Elsewhere (H2), or with more ids, the query runs on its own after the lock.
     *
     * @param con      the transaction's connection
     * @param ids      conversation ids
     * @param instants reads {@code created_at} and {@code updated_at} as the mapping does
     * @param then     the query to run under the locks, or {@code null} for none
     * @return id → the locked conversation, for the ids of this call that have a row
     * @throws SQLException as the driver reports it (a lock timeout, say)
     * @throws IllegalStateException after {@link #write}
     */
    public Map<Long, Conversation> lock(
            Connection con, Collection<Long> ids, InstantReader instants, FollowingQuery then) throws SQLException {
        if (written) {
            throw new IllegalStateException("these conversations were written already");
        }
        Map<Long, Conversation> locked = new LinkedHashMap<>();
        List<Long> sorted = new ArrayList<>(new TreeSet<>(ids));
        sorted.removeIf(id -> {
            AsRead known = rows.get(id);
            if (known != null) {
                locked.put(id, known.conversation());
            }
            return known != null;
        });
        boolean together = then != null && sorted.size() <= IDS_PER_QUERY && StatementPipeline.sendsTogether(con);
        if (together) {
            int slots = sorted.isEmpty() ? 0 : ConversationStore.paddedSize(sorted.size());
            String sql = slots == 0 ? then.sql() : lockSql(slots) + ";\n" + then.sql();
            try (PreparedStatement ps = con.prepareStatement(sql)) {
                bindIds(ps, sorted, slots);
                then.bind(ps, slots + 1);
                boolean resultSet = ps.execute();
                if (slots > 0) {
                    try (ResultSet rs = resultSet ? ps.getResultSet() : null) {
                        readLocked(rs, instants, locked);
                    }
                    resultSet = ps.getMoreResults();
                }
                try (ResultSet rs = resultSet ? ps.getResultSet() : null) {
                    if (rs == null) {
                        throw new SQLException("No result for the query after the lock: " + then.sql());
                    }
                    then.read(rs);
                }
            }
            return locked;
        }
        for (int from = 0; from < sorted.size(); from += IDS_PER_QUERY) {
            List<Long> chunk = sorted.subList(from, Math.min(sorted.size(), from + IDS_PER_QUERY));
            int slots = ConversationStore.paddedSize(chunk.size());
            try (PreparedStatement ps = con.prepareStatement(lockSql(slots))) {
                bindIds(ps, chunk, slots);
                try (ResultSet rs = ps.executeQuery()) {
                    readLocked(rs, instants, locked);
                }
            }
        }
        if (then != null) {
            try (PreparedStatement ps = con.prepareStatement(then.sql())) {
                then.bind(ps, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    then.read(rs);
                }
            }
        }
        return locked;
    }

    /** The locking statement for {@code slots} ids. */
    private static String lockSql(int slots) {
        StringBuilder sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM conversation WHERE id IN (");
        for (int i = 0; i < slots; i++) {
            sql.append(i == 0 ? "?" : ", ?");
        }
        return sql.append(") ORDER BY id FOR UPDATE").toString();
    }

    /** Binds {@code slots} id parameters from index 1, the list padded with its last id. */
    private static void bindIds(PreparedStatement ps, List<Long> ids, int slots) throws SQLException {
        for (int i = 0; i < slots; i++) {
            ps.setLong(i + 1, ids.get(Math.min(i, ids.size() - 1)));
        }
    }

    /** Reads the locked rows into this set and {@code locked}. */
    private void readLocked(ResultSet rs, InstantReader instants, Map<Long, Conversation> locked) throws SQLException {
        if (rs == null) {
            throw new SQLException("The locking statement returned no rows");
        }
        while (rs.next()) {
            Conversation c = read(rs, instants);
            rows.put(c.getId(), new AsRead(c, c.getUpdatedAt(), c.getLastSeq(), c.getTurnCount(), c.getMetadata()));
            locked.put(c.getId(), c);
        }
    }

    private static Conversation read(ResultSet rs, InstantReader instants) throws SQLException {
        int i = 0;
        long id = rs.getLong(++i);
        String tenantId = rs.getString(++i);
        String chatbotKey = rs.getString(++i);
        String userId = rs.getString(++i);
        String sessionId = rs.getString(++i);
        Instant createdAt = instants.read(rs, ++i);
        Instant updatedAt = instants.read(rs, ++i);
        Map<String, Object> metadata = TurnRows.OBJECT.convertToEntityAttribute(rs.getString(++i));
        long lastSeq = rs.getLong(++i);
        long turnCount = rs.getLong(++i);
        long version = rs.getLong(++i);
        return Conversation.restore(
                id,
                tenantId,
                chatbotKey,
                userId,
                sessionId,
                createdAt,
                updatedAt,
                metadata,
                lastSeq,
                turnCount,
                version);
    }

    /** @return the locked conversations, in the order they were locked (unmodifiable) */
    public Collection<Conversation> conversations() {
        List<Conversation> all = new ArrayList<>(rows.size());
        rows.values().forEach(r -> all.add(r.conversation()));
        return Collections.unmodifiableList(all);
    }

    /**
     * Writes back the rows whose conversation changed since it was locked (sequence, turn count, update time; the
     * metadata too when it was replaced), one {@code UPDATE} per row, each raising the row's version by one. The
     * in-memory conversations keep the version they were read with. Called once, after the batch's turns are
     * inserted ({@link TurnRows#insert}).
     *
     * @param con      the transaction's connection
     * @param instants binds {@code updated_at} as the mapping does
     * @return the number of rows written
     * @throws SQLException as the driver reports it; the caller's transaction must then be rolled back
     * @throws IllegalStateException when called twice
     */
    public int write(Connection con, TurnRows.InstantColumn instants) throws SQLException {
        StatementPipeline statements = new StatementPipeline(con);
        write(statements, instants);
        return (int) statements.execute();
    }

    /**
     * Adds the {@code UPDATE} statements of {@link #write(Connection, TurnRows.InstantColumn)} to a pipeline (on
     * PostgreSQL they go in the same round trip as the turns' inserts added before them); the caller executes it.
     *
     * @param statements the transaction's pipeline
     * @param instants   binds {@code updated_at} as the mapping does
     * @throws SQLException as the driver reports it, when statements of the pipeline run
     * @throws IllegalStateException when called twice
     */
    public void write(StatementPipeline statements, TurnRows.InstantColumn instants) throws SQLException {
        if (written) {
            throw new IllegalStateException("these conversations were written already");
        }
        written = true;
        for (AsRead row : rows.values()) {
            if (!row.changed()) {
                continue;
            }
            Conversation c = row.conversation();
            boolean metadata = row.metadataChanged();
            statements.add(metadata ? UPDATE_WITH_METADATA : UPDATE, metadata ? 5 : 4, (ps, first) -> {
                int i = first;
                instants.bind(ps, i++, c.getUpdatedAt());
                ps.setLong(i++, c.getLastSeq());
                ps.setLong(i++, c.getTurnCount());
                if (metadata) {
                    ps.setString(i++, TurnRows.OBJECT.convertToDatabaseColumn(c.getMetadata()));
                }
                ps.setLong(i, c.getId());
            });
        }
    }
}
