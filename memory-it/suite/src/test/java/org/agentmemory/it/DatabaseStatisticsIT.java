package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import org.agentmemory.it.support.Api;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The PostgreSQL server refreshes the planner statistics of the conversation tables itself once writes have grown
 * them by {@code memory.db.analyze-growth} (20 %, at least 1,000 turns), and vacuums them too where autovacuum is off
 * (as on the machine the tests run on): without statistics PostgreSQL kept plans made for empty tables (an import's
 * turn-id lookup then read the whole turn table for every batch), and without vacuum the conversation rows that
 * every write updates leave dead versions behind.
 */
class DatabaseStatisticsIT {

    private static Connection db() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + System.getProperty("it.pg.host", "127.0.0.1") + ":"
                + System.getProperty("it.pg.port", "5432") + "/" + System.getProperty("it.pg.database", "agent_memory_it"),
                System.getProperty("it.pg.user", "postgres"), System.getProperty("it.pg.password", "postgres"));
    }

    private static long single(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static final String TABLES = "('conversation', 'turn', 'tool_invocation', 'turn_message')";

    @Test
    void anImportThatGrowsTheTablesIsFollowedByARefreshOfAllFourTables() throws Exception {
        Api api = Api.postgres();
        try (Connection db = db(); Statement st = db.createStatement()) {
            boolean autovacuum;
            try (ResultSet rs = st.executeQuery("SELECT current_setting('autovacuum')")) {
                rs.next();
                autovacuum = !"off".equals(rs.getString(1));
            }
            String start;
            try (ResultSet rs = st.executeQuery("SELECT extract(epoch FROM now())::text")) {
                rs.next();
                start = rs.getString(1);
            }
            long vacuumsBefore = single(st, "SELECT min(vacuum_count) FROM pg_stat_user_tables WHERE relname IN " + TABLES);
            // More than the threshold whatever this server counted before: 20 % of the table as the server last saw
            // it (its row estimate, which deletes by other tests do not lower) or as it is, at least 1,000 turns.
            long size = Math.max(single(st, "SELECT count(*) FROM turn"),
                    single(st, "SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE relname = 'turn'"));
            int lines = (int) Math.max(1000, size / 4) + 200;
            String user = "stats-" + System.nanoTime();
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < lines; i++) {
                body.append(Api.JSON.writeValueAsString(Api.obj("key", Api.obj("userId", user, "sessionId", "s" + i % 5),
                        "turn", Map.of("turnId", "t" + i, "userMessage", "question " + i, "assistantResponse",
                                "answer " + i)))).append('\n');
            }
            Api.Response imported = api.postRaw("/import", body.toString(), "application/x-ndjson");
            assertThat(imported.status()).as(imported.body()).isEqualTo(200);
            JsonNode report = imported.json();
            assertThat(report.get("turnsImported").asLong()).isEqualTo(lines);

            // Every table analyzed since the import began (and vacuumed where autovacuum is off).
            String refreshed = "SELECT count(*) FROM pg_stat_user_tables WHERE relname IN " + TABLES
                    + " AND last_analyze >= to_timestamp(" + start + ")" + (autovacuum ? "" : " AND vacuum_count > " + vacuumsBefore);
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            long tables = 0;
            while (tables < 4 && System.nanoTime() < deadline) {
                Thread.sleep(250);
                st.execute("SELECT pg_stat_clear_snapshot()");
                tables = single(st, refreshed);
            }
            assertThat(tables).as("tables analyzed%s by the server after the import", autovacuum ? "" : " and vacuumed")
                    .isEqualTo(4);
            if (autovacuum) {
                assertThat(single(st, "SELECT min(vacuum_count) FROM pg_stat_user_tables WHERE relname IN " + TABLES))
                        .as("vacuuming is left to autovacuum").isEqualTo(vacuumsBefore);
            }
        }
    }
}
