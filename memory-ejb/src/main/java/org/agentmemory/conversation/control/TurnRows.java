package org.agentmemory.conversation.control;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.agentmemory.conversation.entity.ToolInvocation;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.platform.json.JsonObjectConverter;
import org.agentmemory.platform.json.JsonStringListConverter;
import org.agentmemory.platform.json.JsonStringMapConverter;
import org.agentmemory.platform.search.VectorBytesConverter;

/**
 * New turns, their tool invocations and their searchable messages, written with multi-row {@code INSERT}
 * statements (on PostgreSQL all in one round trip, {@link StatementPipeline}) instead of through the persistence
 * context. Every turn the service stores is written here: single {@code addTurn}
 * calls, group-committed batches of them, {@code turns/batch} and imports. Flushing these entities through
 * Hibernate costs cascades, dirty checks, insert actions and a binding step per column; here each row is bound once
 * (docs/decisions/0003-bulk-writes-in-jdbc.md).
 *
 * <p>The rows are exactly those the entities map (same tables, columns and attribute converters; the store test
 * reads rows written both ways back equal), and the ids come from the entities' own generators ({@link Ids}; {@link EntityMappings} gives both), so
 * rows written here and rows the persistence context writes never collide. The instances added here must not be
 * persisted as well. The conversation row (sequence, counts, version) is written by the caller: in plain JDBC too
 * for group-committed {@code addTurn} batches and imports ({@link LockedConversations}), by the flush of the managed
 * entity otherwise.
 *
 * <p>Not thread-safe: one instance per transaction, written once. No container types.
 */
public final class TurnRows {

    /** Gives the next id of an entity's table, the way its id generator does. */
    @FunctionalInterface
    public interface Ids {

        /**
         * @param entity a new {@link Turn}, {@link ToolInvocation} or {@link TurnMessage}
         * @return the id to give it
         */
        long next(Object entity);
    }

    /** Binds an instant column ({@code occurred_at}) as the entities' mapping does for this database. */
    @FunctionalInterface
    public interface InstantColumn {

        /**
         * @param ps    the statement
         * @param index the parameter index
         * @param value the instant, not {@code null}
         * @throws SQLException as the driver reports it
         */
        void bind(PreparedStatement ps, int index, java.time.Instant value) throws SQLException;
    }

    static final String INSERT_TURN = "INSERT INTO turn (id, tenant_id, conversation_id, seq, turn_id, user_id,"
            + " chatbot_id, user_message, assistant_response, context_used, tools_used, occurred_at, metadata, error,"
            + " tokens_user, tokens_assistant, tokens_tools, tokens_total, tokenizer, state, schema_version,"
            + " norm_version)";
    static final int TURN_COLUMNS = 22;

    static final String INSERT_INVOCATION = "INSERT INTO tool_invocation (id, tenant_id, turn_pk, ordinal, tool_name,"
            + " input, output, status, error, elapsed_ms, output_chars, omitted, wm_key)";
    static final int INVOCATION_COLUMNS = 13;

    static final String INSERT_MESSAGE = "INSERT INTO turn_message (id, tenant_id, conversation_id, turn_pk, turn_id,"
            + " seq, role, external_id, chatbot_key, user_id, session_id, author, content, search_text, occurred_at,"
            + " embedding, embedding_model)";
    static final int MESSAGE_COLUMNS = 17;

    /** Rows per {@code INSERT} statement (one {@code VALUES} list), as {@code hibernate.jdbc.batch_size}. */
    static final int BATCH = 50;

    private static final InsertText TURN_INSERTS = new InsertText(INSERT_TURN, TURN_COLUMNS);
    private static final InsertText INVOCATION_INSERTS = new InsertText(INSERT_INVOCATION, INVOCATION_COLUMNS);
    private static final InsertText MESSAGE_INSERTS = new InsertText(INSERT_MESSAGE, MESSAGE_COLUMNS);

    /**
     * The text of a table's {@code INSERT} of 1 to {@value #BATCH} rows, built once per row count rather than for
     * every batch. Thread-safe: a racing first use builds the same string twice, and strings are immutable.
     */
    private static final class InsertText {
        private final String insert;
        private final int columns;
        private final String[] byRows = new String[BATCH + 1];

        InsertText(String insert, int columns) {
            this.insert = insert;
            this.columns = columns;
        }

        String of(int rows) {
            String text = byRows[rows];
            if (text == null) {
                text = insert + StatementPipeline.values(columns, rows);
                byRows[rows] = text;
            }
            return text;
        }
    }

    /** The entities' JSON column converters, also used to read rows back ({@link ConversationStore#turns}). */
    static final JsonObjectConverter OBJECT = new JsonObjectConverter();

    static final JsonStringListConverter STRING_LIST = new JsonStringListConverter();
    static final JsonStringMapConverter STRING_MAP = new JsonStringMapConverter();
    private static final VectorBytesConverter VECTOR = new VectorBytesConverter();

    private final List<Turn> turns = new ArrayList<>();
    private final List<TurnMessage> messages = new ArrayList<>();
    private boolean idsAssigned;
    private boolean written;

    /** @param turn a new turn with its invocations (not persisted, no id yet) */
    public void add(Turn turn) {
        turns.add(turn);
    }

    /** @param message a new message of a turn added here (not persisted, no id yet) */
    public void add(TurnMessage message) {
        messages.add(message);
    }

    /** @return whether nothing waits to be written */
    public boolean isEmpty() {
        return turns.isEmpty() && messages.isEmpty();
    }

    /** @return the number of turns added */
    public int turnCount() {
        return turns.size();
    }

    /** @return the messages added, in order (after {@link #insert}: with their ids) */
    public List<TurnMessage> messages() {
        return List.copyOf(messages);
    }

    /**
     * Gives every row its id. Separate from {@link #insert}: an id generator may run statements of its own on the
     * transaction's connection, and the container may hand out a new connection handle after each one.
     *
     * @param ids the entities' id generators
     * @throws IllegalStateException when the rows already have ids
     */
    public void assignIds(Ids ids) {
        if (idsAssigned) {
            throw new IllegalStateException("these rows have their ids already");
        }
        idsAssigned = true;
        for (Turn turn : turns) {
            turn.assignId(ids.next(turn));
            for (ToolInvocation invocation : turn.getInvocations()) {
                invocation.assignId(ids.next(invocation));
            }
        }
        for (TurnMessage message : messages) {
            message.assignId(ids.next(message));
        }
    }

    /**
     * Inserts the turns, their invocations and the messages, in that order (each statement finds the rows its
     * foreign keys point to), in multi-row {@code INSERT} statements of up to {@value #BATCH} rows, all sent in one
     * round trip on PostgreSQL ({@link StatementPipeline}). Nothing is committed here. Called once, after
     * {@link #assignIds}.
     *
     * @param con      the connection of the caller's transaction
     * @param instants binds {@code occurred_at} as the entities' mapping does (see {@link EntityMappings})
     * @return the number of rows inserted
     * @throws SQLException as the driver reports it (a duplicate turn id or sequence among them, say); the caller's
     *         transaction must then be rolled back
     * @throws IllegalStateException when the rows have no ids yet, or were inserted already
     */
    public int insert(Connection con, InstantColumn instants) throws SQLException {
        StatementPipeline statements = new StatementPipeline(con);
        insert(statements, instants);
        return (int) statements.execute();
    }

    /**
     * Adds the {@code INSERT} statements of {@link #insert(Connection, InstantColumn)} to a pipeline, where they
     * run before any statement added after them; the caller executes it.
     *
     * @param statements the transaction's pipeline
     * @param instants   binds {@code occurred_at} as the entities' mapping does (see {@link EntityMappings})
     * @throws SQLException as the driver reports it, when statements of the pipeline run
     * @throws IllegalStateException when the rows have no ids yet, or were inserted already
     */
    public void insert(StatementPipeline statements, InstantColumn instants) throws SQLException {
        if (!idsAssigned || written) {
            throw new IllegalStateException(idsAssigned ? "these rows were inserted already" : "assignIds first");
        }
        written = true;
        List<ToolInvocation> invocations = new ArrayList<>();
        for (Turn turn : turns) {
            invocations.addAll(turn.getInvocations());
        }
        add(statements, TURN_INSERTS, turns, (ps, i, t) -> {
            ps.setLong(i++, t.getId());
            ps.setString(i++, t.getTenantId());
            ps.setLong(i++, t.getConversation().getId());
            ps.setLong(i++, t.getSeq());
            ps.setString(i++, t.getTurnId());
            ps.setString(i++, t.getUserId());
            text(ps, i++, t.getChatbotId());
            ps.setString(i++, t.getUserMessage());
            ps.setString(i++, t.getAssistantResponse());
            text(ps, i++, t.getContextUsed());
            ps.setString(i++, STRING_LIST.convertToDatabaseColumn(t.getToolsUsed()));
            instants.bind(ps, i++, t.getOccurredAt());
            ps.setString(i++, OBJECT.convertToDatabaseColumn(t.getMetadata()));
            text(ps, i++, t.getError());
            ps.setInt(i++, t.getTokensUser());
            ps.setInt(i++, t.getTokensAssistant());
            ps.setInt(i++, t.getTokensTools());
            ps.setInt(i++, t.getTokensTotal());
            ps.setString(i++, t.getTokenizer());
            ps.setString(i++, t.getState());
            ps.setInt(i++, t.getSchemaVersion());
            text(ps, i, t.getNormVersion());
        });
        add(statements, INVOCATION_INSERTS, invocations, (ps, i, v) -> {
            ps.setLong(i++, v.getId());
            ps.setString(i++, v.getTurn().getTenantId());
            ps.setLong(i++, v.getTurn().getId());
            ps.setInt(i++, v.getOrdinal());
            ps.setString(i++, v.getToolName());
            ps.setString(i++, v.getInput());
            text(ps, i++, v.getOutput());
            ps.setString(i++, v.getStatus());
            text(ps, i++, v.getError());
            ps.setObject(i++, v.getElapsedMs(), Types.BIGINT);
            ps.setObject(i++, v.getOutputChars(), Types.INTEGER);
            ps.setString(i++, STRING_MAP.convertToDatabaseColumn(v.getOmitted()));
            text(ps, i, v.getWmKey());
        });
        add(statements, MESSAGE_INSERTS, messages, (ps, i, m) -> {
            ps.setLong(i++, m.getId());
            ps.setString(i++, m.getTenantId());
            ps.setLong(i++, m.getConversationId());
            ps.setLong(i++, m.getTurn().getId());
            ps.setString(i++, m.getTurnId());
            ps.setLong(i++, m.getSeq());
            ps.setString(i++, m.getRole());
            text(ps, i++, m.getExternalId());
            ps.setString(i++, m.getChatbotKey());
            ps.setString(i++, m.getUserId());
            ps.setString(i++, m.getSessionId());
            text(ps, i++, m.getAuthor());
            ps.setString(i++, m.getContent());
            ps.setString(i++, m.getSearchText());
            instants.bind(ps, i++, m.getOccurredAt());
            ps.setObject(i++, VECTOR.convertToDatabaseColumn(m.getEmbedding()), Types.VARBINARY);
            text(ps, i, m.getEmbeddingModel());
        });
    }

    /** Binds one row's columns from a parameter index on. */
    @FunctionalInterface
    private interface RowBinder<T> {
        void bind(PreparedStatement ps, int first, T row) throws SQLException;
    }

    /** Adds {@code INSERT} statements of up to {@value #BATCH} rows each for {@code rows}. */
    private static <T> void add(StatementPipeline statements, InsertText insert, List<T> rows, RowBinder<T> binder)
            throws SQLException {
        int columns = insert.columns;
        for (int from = 0; from < rows.size(); from += BATCH) {
            List<T> chunk = List.copyOf(rows.subList(from, Math.min(rows.size(), from + BATCH)));
            statements.add(insert.of(chunk.size()), columns * chunk.size(), (ps, first) -> {
                int at = first;
                for (T row : chunk) {
                    binder.bind(ps, at, row);
                    at += columns;
                }
            });
        }
    }

    /** A nullable text column. */
    private static void text(PreparedStatement ps, int index, String value) throws SQLException {
        ps.setObject(index, value, Types.VARCHAR);
    }
}
