package org.agentmemory.conversation.control;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Data-changing statements of one transaction, sent to the database together. On PostgreSQL the statements added
 * are joined into one prepared statement of several commands ({@code "INSERT …; INSERT …; UPDATE …"}), which the
 * driver sends in one round trip (a parse, bind and execute message per command, then a single sync) and which
 * the server runs in order; elsewhere (H2) each statement runs on its own when it is added. A group-committed
 * {@code addTurn} batch would otherwise write its turns, invocations, messages and conversation rows in four round
 * trips, each a wait of the batch's writer for the server while other calls queue behind it.
 *
 * <p>Statements run in the order they were added, so a statement finds the rows its foreign keys point to when
 * they were added before it. A pending group runs when {@link #execute} is called, or before a statement whose
 * parameters would take the group past {@value #MAX_PARAMETERS} (the protocol numbers parameters in 16 bits).
 * A failing statement fails the whole call; nothing is committed or rolled back here.
 *
 * <p>Not thread-safe: one instance per transaction and connection. No container types.
 */
public final class StatementPipeline {

    /** Binds one statement's parameters. */
    @FunctionalInterface
    public interface Binder {

        /**
         * @param ps    the statement, of one or more commands
         * @param first the index of this command's first parameter
         * @throws SQLException as the driver reports it
         */
        void bind(PreparedStatement ps, int first) throws SQLException;
    }

    /** A pending statement's binder and the index of its first parameter in the joined statement. */
    private record Bound(Binder binder, int first) {}

    /** The most parameters sent in one round trip: well under the protocol's 65,535. */
    static final int MAX_PARAMETERS = 30_000;

    private final Connection con;
    private final boolean together;
    private final StringBuilder sql = new StringBuilder();
    /** The pending statements' binders, each with the index of its first parameter. */
    private List<Bound> pending = new ArrayList<>();

    private int parameters;
    private long rows;

    /**
     * @param con the transaction's connection; statements are sent together when it is PostgreSQL's
     * @throws SQLException when the connection's metadata cannot be read
     */
    public StatementPipeline(Connection con) throws SQLException {
        this(con, sendsTogether(con));
    }

    /**
     * Whether the connection's driver runs several commands joined in one prepared statement, sent in one round
     * trip: PostgreSQL's does; H2's does not.
     *
     * @param con a connection
     * @return whether statements may be joined
     * @throws SQLException when the connection's metadata cannot be read
     */
    static boolean sendsTogether(Connection con) throws SQLException {
        return "PostgreSQL".equals(con.getMetaData().getDatabaseProductName());
    }

    /**
     * @param con      the transaction's connection
     * @param together whether to join statements into one (the driver must accept several commands in one
     *                 prepared statement, as PostgreSQL's does)
     */
    StatementPipeline(Connection con, boolean together) {
        this.con = con;
        this.together = together;
    }

    /**
     * Adds a data-changing statement; on a database that is not PostgreSQL it runs at once.
     *
     * @param statement  one SQL command, without a trailing semicolon
     * @param parameters the number of its {@code ?} parameters
     * @param binder     binds them, from the index it is given
     * @throws SQLException as the driver reports it, for this statement or for the pending ones it made run
     */
    public void add(String statement, int parameters, Binder binder) throws SQLException {
        if (!together) {
            try (PreparedStatement ps = con.prepareStatement(statement)) {
                binder.bind(ps, 1);
                rows += ps.executeUpdate();
            }
            return;
        }
        if (!pending.isEmpty() && this.parameters + parameters > MAX_PARAMETERS) {
            execute();
        }
        if (!pending.isEmpty()) {
            sql.append(";\n");
        }
        sql.append(statement);
        pending.add(new Bound(binder, this.parameters + 1));
        this.parameters += parameters;
    }

    /**
     * Runs the pending statements, if any.
     *
     * @return the rows changed by every statement of this pipeline so far (their update counts summed)
     * @throws SQLException as the driver reports it
     */
    public long execute() throws SQLException {
        if (pending.isEmpty()) {
            return rows;
        }
        String text = sql.toString();
        List<Bound> run = pending;
        sql.setLength(0);
        pending = new ArrayList<>();
        parameters = 0;
        try (PreparedStatement ps = con.prepareStatement(text)) {
            for (Bound b : run) {
                b.binder().bind(ps, b.first());
            }
            boolean resultSet = ps.execute();
            while (true) {
                if (resultSet) {
                    ps.getResultSet().close();
                } else {
                    int count = ps.getUpdateCount();
                    if (count == -1) {
                        break;
                    }
                    rows += count;
                }
                resultSet = ps.getMoreResults();
            }
        }
        return rows;
    }

    /**
     * @param columns the columns of one row
     * @param rows    the rows
     * @return {@code " VALUES (?, …), (?, …)"} for that many rows of that many columns
     */
    static String values(int columns, int rows) {
        StringBuilder sb = new StringBuilder(8 + rows * (columns * 3 + 2));
        sb.append(" VALUES ");
        for (int r = 0; r < rows; r++) {
            sb.append(r == 0 ? "(" : ", (");
            for (int c = 0; c < columns; c++) {
                sb.append(c == 0 ? "?" : ", ?");
            }
            sb.append(')');
        }
        return sb.toString();
    }
}
