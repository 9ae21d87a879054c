package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Databases;
import org.agentmemory.it.support.KillableServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The dream cycle on EJB timers (issue 33 item 3) with a second WildFly server (the crash test's PostgreSQL server,
 * started and killed here): a schedule that fell due while the server was down runs once after start-up, after the
 * jitter, not once per missed interval; and two servers sharing one PostgreSQL database (this one and the suite's)
 * run an agent's cycle once per interval, never at the same time, taking turns, and {@code runNow} calls racing their
 * timers never run beside a cycle.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it starts and kills WildFly servers of its own.
 */
class DreamTimersIT {

    private static final Duration START = Duration.ofMinutes(4);

    /** Seconds between two cycles of the contended agent. */
    private static final int INTERVAL = 2;

    private static KillableServer server;

    @AfterAll
    static void stopAndForget() {
        if (server != null) {
            server.kill();
            // The next user of this server home (CrashRecoveryIT) starts from empty data (indexes, timers, keys).
            deleteTree(server.dataDirectory());
        }
    }

    @Test
    void aCycleDueWhileTheServerWasDownRunsOnceAfterStartUp() throws Exception {
        String crashDb = System.getProperty("it.crash.pg.jdbc");
        server = server(crashDb);
        server.start(START);
        Api api = server.api();
        String agent = unique("late");
        Api.Response enabled =
                api.put("/brain/schedule", obj("agentId", agent, "enabled", true, "intervalSeconds", 3600));
        assertThat(enabled.status()).as(enabled.body()).isEqualTo(200);
        server.kill();
        try (Connection db = Databases.connect(crashDb)) { // due three hours ago: three missed intervals
            try (PreparedStatement ps = db.prepareStatement(
                    "UPDATE dream_schedule SET next_due = now() - interval '3 hours' WHERE agent_id = ?")) {
                ps.setString(1, agent);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
        }
        Instant restarted = Instant.now();
        server.start(START);
        Api after = server.api();

        List<JsonNode> reports = reports(after, agent);
        Instant deadline = Instant.now().plusSeconds(60);
        while (reports.isEmpty()) {
            assertThat(Instant.now()).as("the missed cycle ran after start-up").isBefore(deadline);
            Thread.sleep(500);
            reports = reports(after, agent);
        }
        Thread.sleep(5_000); // a cycle per missed interval would show up now
        reports = reports(after, agent);
        assertThat(reports).hasSize(1);
        assertThat(reports.get(0).get("trigger").asText()).isEqualTo("timer");
        assertThat(Instant.parse(reports.get(0).get("startedAt").asText())).isAfter(restarted);
        JsonNode schedule =
                after.get("/brain/schedule" + query("agentId", agent)).json();
        assertThat(Instant.parse(schedule.get("nextDue").asText()))
                .isAfter(Instant.now().plusSeconds(3000));
        server.kill();
    }

    @Test
    void twoServersSharingOneDatabaseRunEachCycleOncePerInterval() throws Exception {
        if (server != null) {
            server.kill();
        }
        server = server(System.getProperty("it.pg.jdbc"));
        System.out.println("[dream timers] second server on the suite's database started in " + server.start(START));
        Api suite = Api.postgres();
        String agent = unique("shared");
        Api.Response enabled =
                suite.put("/brain/schedule", obj("agentId", agent, "enabled", true, "intervalSeconds", INTERVAL));
        assertThat(enabled.status()).as(enabled.body()).isEqualTo(200);
        Thread.sleep(30_000);
        List<JsonNode> timed = sorted(reports(suite, agent));
        assertThat(timed.size())
                .as("timer cycles in 30 s at %d s intervals: %s", INTERVAL, timed)
                .isBetween(6, 15);
        assertOnePerInterval(timed);
        assertThat(timed).allSatisfy(r -> assertThat(r.get("trigger").asText()).isEqualTo("timer"));
        assertThat(timed.stream().map(r -> r.get("serverId").asText()).distinct())
                .as("both servers' timers took turns: %s", timed)
                .hasSize(2);

        // Then runNow races the timers: it runs or answers 409, never beside a running cycle. A manual cycle makes
        // the next due an interval after it, so the calls are spaced by more than an interval.
        List<Integer> manual = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            manual.add(suite.post("/brain/cycles", obj("agentId", agent)).status());
            Thread.sleep(INTERVAL * 1_400L);
        }
        suite.put("/brain/schedule", obj("agentId", agent, "enabled", false));
        Thread.sleep(1_500); // a cycle that had just started ends
        assertThat(manual).allSatisfy(status -> assertThat(status).isIn(200, 409));
        assertOnePerInterval(sorted(reports(suite, agent)));
    }

    /** No two cycles overlap; a timer's cycle starts at least an interval after the previous cycle ended. */
    private static void assertOnePerInterval(List<JsonNode> reports) {
        for (int i = 1; i < reports.size(); i++) {
            Instant previousEnd =
                    Instant.parse(reports.get(i - 1).get("finishedAt").asText());
            Instant start = Instant.parse(reports.get(i).get("startedAt").asText());
            assertThat(start)
                    .as("cycle %d overlaps the previous: %s", i, reports)
                    .isAfterOrEqualTo(previousEnd);
            if (reports.get(i).get("trigger").asText().equals("timer")) {
                assertThat(Duration.between(previousEnd, start).toMillis())
                        .as("timer cycle %d started an interval after the previous ended: %s", i, reports)
                        .isGreaterThanOrEqualTo(INTERVAL * 1000L - 50);
            }
        }
    }

    private static List<JsonNode> sorted(List<JsonNode> reports) {
        List<JsonNode> sorted = new ArrayList<>(reports);
        sorted.sort(Comparator.comparing(r -> Instant.parse(r.get("startedAt").asText())));
        return sorted;
    }

    private static KillableServer server(String jdbc) {
        return new KillableServer(
                "pg-dream",
                Path.of(System.getProperty("it.crash.pg.home")),
                Integer.getInteger("it.crash.pg.offset"),
                System.getProperty("it.crash.java.opts")
                        + " -Dmemory.dream.sync-seconds=1 -Dmemory.dream.startup-jitter-seconds=3",
                Map.of(
                        "MEMORY_DB_URL", jdbc,
                        "MEMORY_DB_USER", System.getProperty("it.pg.user"),
                        "MEMORY_DB_PASSWORD", System.getProperty("it.pg.password", "postgres")));
    }

    private static List<JsonNode> reports(Api api, String agent) {
        Api.Response r = api.get("/brain/cycles" + query("agentId", agent));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> items = new ArrayList<>();
        r.json().get("items").forEach(items::add);
        return items;
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
