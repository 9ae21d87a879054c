package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.agentmemory.testsupport.Databases;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link StatementPipeline} on real PostgreSQL (statements joined into one prepared statement of several commands)
 * and real H2 (each statement on its own): order, row counts, splitting past the parameter limit, failures.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatementPipelineTest {

    private DataSource postgres;
    private DataSource h2;

    @BeforeAll
    void start() {
        postgres = Databases.freshPostgres("agent_memory_pipeline_test");
        h2 = Databases.freshH2();
    }

    @BeforeEach
    void tables() throws SQLException {
        for (DataSource ds : new DataSource[] {postgres, h2}) {
            try (Connection con = ds.getConnection();
                    Statement st = con.createStatement()) {
                st.execute("DROP TABLE IF EXISTS pipeline_child");
                st.execute("DROP TABLE IF EXISTS pipeline_parent");
                st.execute("CREATE TABLE pipeline_parent (id BIGINT PRIMARY KEY, n INT NOT NULL)");
                st.execute("CREATE TABLE pipeline_child (id BIGINT PRIMARY KEY,"
                        + " parent BIGINT NOT NULL REFERENCES pipeline_parent (id))");
            }
        }
    }

    Stream<Arguments> databases() {
        return Stream.of(Arguments.of("postgresql", postgres), Arguments.of("h2", h2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void statementsRunInTheOrderAddedAndTheirRowCountsAreSummed(String name, DataSource ds) throws SQLException {
        try (Connection con = ds.getConnection()) {
            con.setAutoCommit(false);
            StatementPipeline statements = new StatementPipeline(con);
            statements.add("INSERT INTO pipeline_parent (id, n)" + StatementPipeline.values(2, 3), 6, (ps, first) -> {
                for (int r = 0; r < 3; r++) {
                    ps.setLong(first + 2 * r, r + 1);
                    ps.setInt(first + 2 * r + 1, 0);
                }
            });
            // Finds the parents inserted by the statement before it.
            statements.add(
                    "INSERT INTO pipeline_child (id, parent)" + StatementPipeline.values(2, 2), 4, (ps, first) -> {
                        ps.setLong(first, 10);
                        ps.setLong(first + 1, 1);
                        ps.setLong(first + 2, 11);
                        ps.setLong(first + 3, 3);
                    });
            statements.add("UPDATE pipeline_parent SET n = n + ? WHERE id = ?", 2, (ps, first) -> {
                ps.setInt(first, 7);
                ps.setLong(first + 1, 3);
            });
            assertThat(statements.execute()).isEqualTo(3 + 2 + 1);
            assertThat(statements.execute()).as("nothing pending runs again").isEqualTo(6);
            con.commit();
            assertThat(longs(con, "SELECT n FROM pipeline_parent ORDER BY id")).containsExactly(0L, 0L, 7L);
            assertThat(longs(con, "SELECT parent FROM pipeline_child ORDER BY id"))
                    .containsExactly(1L, 3L);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void statementsPastTheParameterLimitRunInSeveralRoundTripsInOrder(String name, DataSource ds) throws SQLException {
        int perStatement = 500;
        int statementsAdded = 2 * StatementPipeline.MAX_PARAMETERS / (2 * perStatement) + 5;
        try (Connection con = ds.getConnection()) {
            con.setAutoCommit(false);
            StatementPipeline statements = new StatementPipeline(con);
            for (int s = 0; s < statementsAdded; s++) {
                long base = (long) s * perStatement;
                statements.add(
                        "INSERT INTO pipeline_parent (id, n)" + StatementPipeline.values(2, perStatement),
                        2 * perStatement,
                        (ps, first) -> {
                            for (int r = 0; r < perStatement; r++) {
                                ps.setLong(first + 2 * r, base + r);
                                ps.setInt(first + 2 * r + 1, (int) (base + r));
                            }
                        });
            }
            long last = (long) statementsAdded * perStatement - 1;
            statements.add("INSERT INTO pipeline_child (id, parent) VALUES (?, ?)", 2, (ps, first) -> {
                ps.setLong(first, 1);
                ps.setLong(first + 1, last);
            });
            assertThat(statements.execute()).isEqualTo(last + 1 + 1);
            con.commit();
            assertThat(longs(con, "SELECT COUNT(*) FROM pipeline_parent")).containsExactly(last + 1);
            assertThat(longs(con, "SELECT COUNT(*) FROM pipeline_parent WHERE n <> id"))
                    .containsExactly(0L);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aFailingStatementFailsTheCallAndTheTransactionRollsBackWhole(String name, DataSource ds) throws SQLException {
        try (Connection con = ds.getConnection()) {
            con.setAutoCommit(false);
            assertThatThrownBy(() -> {
                        StatementPipeline statements = new StatementPipeline(con);
                        statements.add("INSERT INTO pipeline_parent (id, n) VALUES (?, ?)", 2, (ps, first) -> {
                            ps.setLong(first, 1);
                            ps.setInt(first + 1, 1);
                        });
                        statements.add("INSERT INTO pipeline_child (id, parent) VALUES (?, ?)", 2, (ps, first) -> {
                            ps.setLong(first, 1);
                            ps.setLong(first + 1, 99); // no such parent
                        });
                        statements.execute();
                    })
                    .isInstanceOf(SQLException.class);
            con.rollback();
            assertThat(longs(con, "SELECT COUNT(*) FROM pipeline_parent")).containsExactly(0L);
        }
    }

    @Test
    void onPostgreSqlStatementsWaitForExecuteAndGoTogether() throws SQLException {
        try (Connection con = postgres.getConnection()) {
            con.setAutoCommit(false);
            StatementPipeline statements = new StatementPipeline(con);
            statements.add("INSERT INTO pipeline_parent (id, n) VALUES (?, ?)", 2, (ps, first) -> {
                ps.setLong(first, 1);
                ps.setInt(first + 1, 1);
            });
            assertThat(longs(con, "SELECT COUNT(*) FROM pipeline_parent"))
                    .as("sent with the next ones")
                    .containsExactly(0L);
            assertThat(statements.execute()).isEqualTo(1);
            assertThat(longs(con, "SELECT COUNT(*) FROM pipeline_parent")).containsExactly(1L);
            con.rollback();
        }
        try (Connection con = h2.getConnection()) {
            con.setAutoCommit(false);
            new StatementPipeline(con).add("INSERT INTO pipeline_parent (id, n) VALUES (?, ?)", 2, (ps, first) -> {
                ps.setLong(first, 1);
                ps.setInt(first + 1, 1);
            });
            assertThat(longs(con, "SELECT COUNT(*) FROM pipeline_parent"))
                    .as("H2 runs each statement when added")
                    .containsExactly(1L);
            con.rollback();
        }
    }

    @Test
    void valuesListsRowsOfPlaceholders() {
        assertThat(StatementPipeline.values(3, 2)).isEqualTo(" VALUES (?, ?, ?), (?, ?, ?)");
        assertThat(StatementPipeline.values(1, 1)).isEqualTo(" VALUES (?)");
    }

    private static java.util.List<Long> longs(Connection con, String sql) throws SQLException {
        java.util.List<Long> values = new java.util.ArrayList<>();
        try (Statement st = con.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getLong(1));
            }
        }
        return values;
    }
}
