package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Embeddings;
import org.agentmemory.it.support.KillableServer;
import org.junit.jupiter.api.Test;

/**
 * Acknowledged means durable (issue 31, item 1): four clients append turns to a real server, the server's JVM is
 * killed with {@code kill -9} in the middle of the stream and started again on the same data, three times in a
 * row, on the embedded H2 default and on PostgreSQL. After every restart:
 * <ul>
 * <li>every turn the server acknowledged (201, or 200 for a turn id already stored) is stored, whole;</li>
 * <li>every stored turn was sent, whole (turn, tool invocation and messages together or not at all), once;</li>
 * <li>full-text and vector search find exactly the stored turns' messages: no ghost of a turn the database does not
 * hold, none missing;</li>
 * <li>the background embedder's backlog drains to 0;</li>
 * <li>a turn whose answer was lost in the crash, posted again with its id, is stored once and found once.</li>
 * </ul>
 * The servers ({@code target/wildfly-crash-h2}, {@code target/wildfly-crash-pg}) are unpacked and configured by the
 * build and started by this test; they embed conversation messages with the small MiniLM model so that the
 * backlog of each cycle drains in seconds.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it kills and restarts WildFly servers of its own.
 */
class CrashRecoveryIT {

    private static final int CLIENTS = 4;
    private static final int CYCLES = 3;
    /** Turns per conversation: every conversation's messages fit in one search page (topK 100). */
    private static final int TURNS_PER_CONVERSATION = 40;

    private static final String BOT = "crash-bot";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(4);

    @Test
    void embeddedH2LosesNoAcknowledgedTurnWhenKilled() {
        crashRepeatedly(server("h2", Map.of()));
    }

    @Test
    void postgresqlLosesNoAcknowledgedTurnWhenKilled() {
        crashRepeatedly(server(
                "pg",
                Map.of(
                        "MEMORY_DB_URL",
                        System.getProperty("it.crash.pg.jdbc"),
                        "MEMORY_DB_USER",
                        System.getProperty("it.pg.user"),
                        "MEMORY_DB_PASSWORD",
                        System.getProperty("it.pg.password", "postgres"))));
    }

    private static KillableServer server(String database, Map<String, String> environment) {
        String home = System.getProperty("it.crash." + database + ".home");
        assertThat(home).as("it.crash.%s.home (set by the build)", database).isNotBlank();
        return new KillableServer(
                database,
                Path.of(home),
                Integer.getInteger("it.crash." + database + ".offset"),
                System.getProperty("it.crash.java.opts"),
                environment);
    }

    /** One sent turn: its conversation's key, its id and the token every one of its texts carries. */
    private record Sent(String userId, String sessionId, String turnId, String token) {

        Map<String, Object> body() {
            return obj(
                    "userId",
                    userId,
                    "sessionId",
                    sessionId,
                    "chatbotId",
                    BOT,
                    "turn",
                    obj(
                            "turnId",
                            turnId,
                            "userMessage",
                            "crashprobe question " + token,
                            "assistantResponse",
                            "crashprobe answer " + token,
                            "toolInvocations",
                            List.of(obj(
                                    "toolName",
                                    "lookup",
                                    "input",
                                    obj("q", token),
                                    "output",
                                    "found " + token,
                                    "elapsedMs",
                                    3))));
        }

        String conversation() {
            return userId + "/" + sessionId;
        }
    }

    /** What the clients sent and what the server acknowledged, over every cycle. */
    private static final class Ledger {
        final Map<String, Sent> sent = new ConcurrentHashMap<>();
        final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        final Map<String, Integer> refusedBeforeKill = new ConcurrentHashMap<>();
    }

    private static void crashRepeatedly(KillableServer server) {
        Api api = server.api();
        Ledger ledger = new Ledger();
        String run = Long.toString(System.nanoTime() % 100_000_000L, 36).replaceAll("[0-9]", "q");
        Random random = new Random(42);
        try {
            Duration firstStart = server.start(START_TIMEOUT);
            System.out.printf(
                    "[crash %s] started in %.1f s, server RSS %d MB%n",
                    server, firstStart.toMillis() / 1e3, server.residentMegabytes());
            for (int cycle = 1; cycle <= CYCLES; cycle++) {
                int sentBefore = ledger.sent.size();
                int ackedBefore = ledger.acknowledged.size();
                long killAfterMs = 1_500 + random.nextInt(2_500);
                appendUntilKilled(server, api, ledger, run, cycle, killAfterMs);
                int sent = ledger.sent.size() - sentBefore;
                int acked = ledger.acknowledged.size() - ackedBefore;
                Duration restart = server.start(START_TIMEOUT);
                Verified v = verify(api, ledger);
                Instant drainStart = Instant.now();
                Embeddings.awaitVectors(api, Duration.ofMinutes(3));
                Duration drained = Duration.between(drainStart, Instant.now());
                int vectorChecked = verifyVectorHits(api, ledger, v);
                int reposted = repostUnacknowledged(api, ledger);
                System.out.printf(
                        "[crash %s] cycle %d: killed %d ms into the stream; %d turns sent, %d acknowledged;"
                                + " after restart (%.1f s) %d of %d turns stored, %d acknowledged lost, %d sent but"
                                + " unacknowledged of which %d stored whole and %d absent everywhere; full-text hits match"
                                + " %d conversations, vector hits match %d after the backlog drained in %.1f s; %d"
                                + " unacknowledged turns posted again, each stored and found once; server RSS %d MB%n",
                        server,
                        cycle,
                        killAfterMs,
                        sent,
                        acked,
                        restart.toMillis() / 1e3,
                        v.stored,
                        ledger.sent.size(),
                        v.lostAcknowledged.size(),
                        v.unacknowledged,
                        v.unacknowledgedStored,
                        v.unacknowledged - v.unacknowledgedStored,
                        v.conversationIds.size(),
                        vectorChecked,
                        drained.toMillis() / 1e3,
                        reposted,
                        server.residentMegabytes());
                assertThat(ledger.refusedBeforeKill)
                        .as("answers other than 200/201 before the kill")
                        .isEmpty();
            }
        } finally {
            server.kill();
        }
    }

    /**
     * Four clients append turns (each to conversations of its own, {@value #TURNS_PER_CONVERSATION} turns each) until
     * the server is killed, {@code killAfterMs} after the first acknowledged turn of this cycle.
     */
    private static void appendUntilKilled(
            KillableServer server, Api api, Ledger ledger, String run, int cycle, long killAfterMs) {
        AtomicBoolean killed = new AtomicBoolean();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> running = new ArrayList<>();
        int ackedBefore = ledger.acknowledged.size();
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            running.add(clients.submit(() -> {
                for (int n = 0; ; n++) {
                    Sent turn = new Sent(
                            "crash-" + run + "-" + cycle + "-" + client,
                            "s" + (n / TURNS_PER_CONVERSATION),
                            "t" + cycle + "-" + client + "-" + n,
                            "zq" + run + cycle + "x" + client + "x" + n);
                    ledger.sent.put(turn.turnId(), turn);
                    try {
                        Api.Response r = api.post("/turns", turn.body());
                        if (r.status() == 201 || r.status() == 200) {
                            ledger.acknowledged.add(turn.turnId());
                        } else if (!killed.get()) {
                            ledger.refusedBeforeKill.merge(r.status() + " " + r.body(), 1, Integer::sum);
                        }
                    } catch (UncheckedIOException | IllegalStateException e) {
                        if (killed.get()) {
                            return; // the connection died with the server
                        }
                        throw e;
                    }
                }
            }));
        }
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (ledger.acknowledged.size() == ackedBefore && System.nanoTime() < deadline) {
            pause(10);
        }
        pause(killAfterMs);
        killed.set(true);
        server.kill();
        for (Future<?> f : running) {
            try {
                f.get();
            } catch (Exception e) {
                throw new AssertionError("a client failed before the kill", e);
            }
        }
        clients.shutdown();
    }

    /** What the restarted server holds, checked against the ledger. */
    private static final class Verified {
        final Map<String, Long> conversationIds = new TreeMap<>();
        final Map<String, List<String>> storedByConversation = new HashMap<>();
        final List<String> lostAcknowledged = new ArrayList<>();
        int stored;
        int unacknowledged;
        int unacknowledgedStored;
    }

    private static Verified verify(Api api, Ledger ledger) {
        Verified v = new Verified();
        Map<String, List<Sent>> byConversation = new LinkedHashMap<>();
        ledger.sent
                .values()
                .forEach(s -> byConversation
                        .computeIfAbsent(s.conversation(), k -> new ArrayList<>())
                        .add(s));
        List<Sent> absent = new ArrayList<>();
        for (Map.Entry<String, List<Sent>> entry : byConversation.entrySet()) {
            Sent any = entry.getValue().get(0);
            Api.Response r = api.get("/conversations/lookup"
                    + query("userId", any.userId(), "sessionId", any.sessionId(), "chatbotId", BOT));
            List<String> stored = new ArrayList<>();
            if (r.status() == 200) {
                JsonNode history = r.json();
                v.conversationIds.put(
                        entry.getKey(), history.get("conversationId").asLong());
                for (JsonNode t : history.get("turns")) {
                    String turnId = t.get("turnId").asText();
                    Sent sent = ledger.sent.get(turnId);
                    assertThat(sent).as("stored turn %s was sent", turnId).isNotNull();
                    assertThat(sent.conversation()).isEqualTo(entry.getKey());
                    assertThat(t.get("userMessage").asText()).isEqualTo("crashprobe question " + sent.token());
                    assertThat(t.get("assistantResponse").asText()).isEqualTo("crashprobe answer " + sent.token());
                    assertThat(t.get("toolInvocations"))
                            .as("turn %s's tool invocation", turnId)
                            .hasSize(1);
                    assertThat(t.at("/toolInvocations/0/output").asText()).isEqualTo("found " + sent.token());
                    stored.add(turnId);
                }
                assertThat(stored).as("turn ids of %s", entry.getKey()).doesNotHaveDuplicates();
                v.storedByConversation.put(entry.getKey(), stored);
            } else {
                assertThat(r.status())
                        .as("lookup of %s: %s", entry.getKey(), r.body())
                        .isEqualTo(404);
            }
            Set<String> storedSet = Set.copyOf(stored);
            for (Sent s : entry.getValue()) {
                boolean acked = ledger.acknowledged.contains(s.turnId());
                if (acked && !storedSet.contains(s.turnId())) {
                    v.lostAcknowledged.add(s.turnId());
                }
                if (!acked) {
                    v.unacknowledged++;
                    if (storedSet.contains(s.turnId())) {
                        v.unacknowledgedStored++;
                    }
                }
                if (!storedSet.contains(s.turnId())) {
                    absent.add(s);
                }
            }
            v.stored += stored.size();
        }
        assertThat(v.lostAcknowledged)
                .as(
                        "acknowledged turns missing after kill -9 (%d of %d acknowledged)",
                        v.lostAcknowledged.size(), ledger.acknowledged.size())
                .isEmpty();
        for (Map.Entry<String, Long> c : v.conversationIds.entrySet()) {
            assertThat(messageHits(api, c.getValue(), "crashprobe", "full_text"))
                    .as("full-text hits of conversation %s", c.getKey())
                    .containsExactlyInAnyOrderElementsOf(expectedHits(v.storedByConversation.get(c.getKey())));
        }
        for (Sent s : absent) {
            assertThat(search(api, obj("userId", s.userId(), "query", s.token(), "mode", "full_text", "topK", 10)))
                    .as("full-text hits of %s, which is not stored", s.turnId())
                    .isEmpty();
        }
        return v;
    }

    private static int verifyVectorHits(Api api, Ledger ledger, Verified v) {
        for (Map.Entry<String, Long> c : v.conversationIds.entrySet()) {
            assertThat(messageHits(api, c.getValue(), "crashprobe question", "vector"))
                    .as("vector hits of conversation %s", c.getKey())
                    .containsExactlyInAnyOrderElementsOf(expectedHits(v.storedByConversation.get(c.getKey())));
        }
        return v.conversationIds.size();
    }

    /** Posts every turn whose answer the crash took again: each is then stored once and found once. */
    private static int repostUnacknowledged(Api api, Ledger ledger) {
        List<Sent> again = ledger.sent.values().stream()
                .filter(s -> !ledger.acknowledged.contains(s.turnId()))
                .toList();
        for (Sent s : again) {
            Api.Response r = api.post("/turns", s.body());
            assertThat(r.status())
                    .as("posting %s again: %s", s.turnId(), r.body())
                    .isIn(200, 201);
            ledger.acknowledged.add(s.turnId());
            JsonNode history = api.get("/conversations/lookup"
                            + query("userId", s.userId(), "sessionId", s.sessionId(), "chatbotId", BOT))
                    .json();
            assertThat(history.findValuesAsText("turnId").stream().filter(s.turnId()::equals))
                    .hasSize(1);
            assertThat(
                            search(api, obj("userId", s.userId(), "query", s.token(), "mode", "full_text", "topK", 10))
                                    .stream()
                                    .map(h -> h.get("turnId").asText() + "/"
                                            + h.get("role").asText())
                                    .toList())
                    .containsExactlyInAnyOrder(s.turnId() + "/user", s.turnId() + "/assistant");
        }
        return again.size();
    }

    private static List<String> expectedHits(Collection<String> turnIds) {
        List<String> expected = new ArrayList<>();
        for (String id : turnIds) {
            expected.add(id + "/user");
            expected.add(id + "/assistant");
        }
        return expected;
    }

    private static List<String> messageHits(Api api, long conversationId, String query, String mode) {
        return search(api, obj("conversationId", conversationId, "query", query, "mode", mode, "topK", 100)).stream()
                .map(h -> h.get("turnId").asText() + "/" + h.get("role").asText())
                .toList();
    }

    private static List<JsonNode> search(Api api, Map<String, Object> body) {
        Api.Response r = api.post("/messages/search", body);
        assertThat(r.status()).as("search %s: %s", body, r.body()).isEqualTo(200);
        List<JsonNode> hits = new ArrayList<>();
        r.json().get("hits").forEach(hits::add);
        return hits;
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
