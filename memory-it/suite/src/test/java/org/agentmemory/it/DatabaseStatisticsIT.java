package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.agentmemory.it.support.Api;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL server refreshes the planner statistics of the conversation tables itself once writes have grown
 * them by {@code memory.db.analyze-growth} (20 %, at least 1,000 turns), and vacuums them too where autovacuum is off
 * (as on the machine the tests run on): without statistics PostgreSQL kept plans made for empty tables (an import's
 * turn-id lookup then read the whole turn table for every batch), and without vacuum the conversation rows that
 * every write updates leave dead versions behind. Its {@code ANALYZE} samples 3,000 rows per table (statistics
 * target 10), which is what keeps a refresh cheap beside the writes.
 */
class DatabaseStatisticsIT {

    private static Connection db() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://" + System.getProperty("it.pg.host", "127.0.0.1") + ":"
                        + System.getProperty("it.pg.port", "5432") + "/"
                        + System.getProperty("it.pg.database", "agent_memory_it"),
                System.getProperty("it.pg.user", "postgres"),
                System.getProperty("it.pg.password", "postgres"));
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
        try (Connection db = db();
                Statement st = db.createStatement()) {
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
            long vacuumsBefore =
                    single(st, "SELECT min(vacuum_count) FROM pg_stat_user_tables WHERE relname IN " + TABLES);
            // More than the threshold whatever this server counted before: 20 % of the table as the server last saw
            // it (its row estimate, which deletes by other tests do not lower) or as it is, at least 1,000 turns.
            long size = Math.max(
                    single(st, "SELECT count(*) FROM turn"),
                    single(st, "SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE relname = 'turn'"));
            int lines = (int) Math.max(1000, size / 4) + 200;
            String user = "stats-" + System.nanoTime();
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < lines; i++) {
                body.append(Api.JSON.writeValueAsString(Api.obj(
                                "key",
                                Api.obj("userId", user, "sessionId", "s" + i % 5),
                                "turn",
                                Map.of(
                                        "turnId",
                                        "t" + i,
                                        "userMessage",
                                        "question " + i,
                                        "assistantResponse",
                                        "answer " + i))))
                        .append('\n');
            }
            Api.Response imported = api.postRaw("/import", body.toString(), "application/x-ndjson");
            assertThat(imported.status()).as(imported.body()).isEqualTo(200);
            JsonNode report = imported.json();
            assertThat(report.get("turnsImported").asLong()).isEqualTo(lines);

            // Every table analyzed since the import began (and vacuumed where autovacuum is off).
            String refreshed = "SELECT count(*) FROM pg_stat_user_tables WHERE relname IN " + TABLES
                    + " AND last_analyze >= to_timestamp(" + start + ")"
                    + (autovacuum ? "" : " AND vacuum_count > " + vacuumsBefore);
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            long tables = 0;
            while (tables < 4 && System.nanoTime() < deadline) {
                Thread.sleep(250);
                st.execute("SELECT pg_stat_clear_snapshot()");
                tables = single(st, refreshed);
            }
            assertThat(tables)
                    .as("tables analyzed%s by the server after the import", autovacuum ? "" : " and vacuumed")
                    .isEqualTo(4);
            if (autovacuum) {
                assertThat(single(st, "SELECT min(vacuum_count) FROM pg_stat_user_tables WHERE relname IN " + TABLES))
                        .as("vacuuming is left to autovacuum")
                        .isEqualTo(vacuumsBefore);
            } else {
                // The server's ANALYZE samples 300 × 10 rows, not PostgreSQL's default 300 × 100: a histogram of the
                // unique ids has at most 10 buckets (11 bounds). Only this server analyzes where autovacuum is off.
                long bounds = single(
                        st,
                        "SELECT coalesce(array_length(histogram_bounds, 1), 0) FROM pg_stats"
                                + " WHERE tablename = 'turn' AND attname = 'id'");
                assertThat(bounds)
                        .as("histogram bounds of turn.id after the server's refresh")
                        .isBetween(2L, 11L);
            }
        }
    }

    /**
     * Every write of a turn updates its conversation row. The conversation table leaves half of each page free
     * (migration V6, {@code fillfactor = 50}), so these updates stay on the row's page (heap-only tuples) and add no
     * entry to the table's four indexes; on full pages 70 % of them did in an import.
     */
    @Test
    void turnWritesUpdateTheirConversationRowWithoutTouchingItsIndexes() throws Exception {
        Api api = Api.postgres();
        try (Connection db = db();
                Statement st = db.createStatement()) {
            try (ResultSet rs = st.executeQuery(
                    "SELECT array_to_string(reloptions, ',') FROM pg_class" + " WHERE relname = 'conversation'")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("fillfactor=50");
            }
            String user = "hot-" + System.nanoTime();
            // The conversation is created by the first write; the 40 after it each update its row.
            assertThat(api.post(
                                    "/turns",
                                    Map.of(
                                            "userId",
                                            user,
                                            "sessionId",
                                            "s",
                                            "turn",
                                            Map.of("turnId", "t0", "userMessage", "first", "assistantResponse", "ok")))
                            .status())
                    .isEqualTo(201);
            String counts = "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'conversation'";
            long[] before = pair(st, counts);
            int writes = 40;
            for (int i = 1; i <= writes; i++) {
                Api.Response r = api.post(
                        "/turns",
                        Map.of(
                                "userId",
                                user,
                                "sessionId",
                                "s",
                                "turn",
                                Map.of(
                                        "turnId",
                                        "t" + i,
                                        "userMessage",
                                        "question " + i,
                                        "assistantResponse",
                                        "answer " + i)));
                assertThat(r.status()).as(r.body()).isEqualTo(201);
            }
            // Statistics reach the shared counters when each backend goes idle, at most once a second.
            long[] after = pair(st, counts);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (after[0] - before[0] < writes && System.nanoTime() < deadline) {
                Thread.sleep(250);
                after = pair(st, counts);
            }
            long updates = after[0] - before[0];
            long heapOnly = after[1] - before[1];
            assertThat(updates).as("conversation updates counted").isGreaterThanOrEqualTo(writes);
            // Other tests' writes may count too; nearly all updates must still be heap-only.
            assertThat((double) heapOnly / updates)
                    .as("heap-only share of %d conversation updates", updates)
                    .isGreaterThan(0.8);
        }
    }

    private static long[] pair(Statement st, String sql) throws SQLException {
        st.execute("SELECT pg_stat_clear_snapshot()");
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }
}
