package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Databases;
import org.agentmemory.it.support.Embeddings;
import org.agentmemory.it.support.Episodes;
import org.agentmemory.it.support.KillableServer;
import org.agentmemory.it.support.OpenSearchProcess;
import org.agentmemory.it.support.ScaleOutCluster;
import org.agentmemory.it.support.Turns;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Several servers on one PostgreSQL database and one OpenSearch node (issue 36): two WildFly servers configured with
 * {@code config/wildfly/search-opensearch.cli} (every index on OpenSearch, Hibernate Search's outbox-polling
 * coordination) on a database of their own, and a real OpenSearch 2.19 node as a process of its own, all started
 * here. Documents are counted in OpenSearch directly and compared with the rows: "indexed exactly once" means one
 * document per row (written by the row's id) and no event aborted in the outbox.
 *
 * <p>One class, in order, because the servers take a minute each to start: parity with the Lucene server of the
 * suite, writes over both nodes, an outage of the search engine, a mass reindex, and last a {@code kill -9} of one
 * node (the other indexes what it committed).
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it runs a WildFly cluster of its own on OpenSearch.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScaleOutIT {

    /** How long every committed write may take to become searchable once the search engine answers. */
    private static final Duration INDEXED = Duration.ofSeconds(180);

    private static ScaleOutCluster cluster;
    private static OpenSearchProcess search;
    private static KillableServer nodeA;
    private static Api a;
    private static Api b;

    @BeforeAll
    static void startCluster() {
        cluster = ScaleOutCluster.start();
        search = cluster.search();
        nodeA = cluster.nodeA();
        a = nodeA.api();
        b = cluster.nodeB().api();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.stop();
        }
    }

    @Test
    @Order(1)
    void luceneAndOpenSearchGiveTheSameTopResultsWithinScope() throws Exception {
        Api lucene = Api.postgres();
        String run = UUID.randomUUID().toString().substring(0, 8);
        String user = "parity-" + run;
        String other = "parity-other-" + run;
        String[][] corpus = {
            {"My golden retriever puppy Biscuit chewed the sofa", "Puppies chew when teething; try frozen toys."},
            {"How do I repot a fiddle leaf fig?", "Use a pot two inches wider with fast-draining soil."},
            {"The train to Lisbon leaves at seven", "Arrive early; the Lisbon platform changes often."},
            {"Recommend a recipe for sourdough bread", "Feed the starter, autolyse, then fold every hour."},
            {"My laptop battery drains overnight", "Disable wake on network and check sleep settings."},
            {"Which telescope suits a beginner astronomer?", "A small Dobsonian shows Saturn's rings clearly."}
        };
        for (Api api : List.of(lucene, a)) {
            for (String owner : List.of(user, other)) {
                for (int i = 0; i < corpus.length; i++) {
                    Api.Response r = api.post(
                            "/turns",
                            Turns.addTurn("parity", owner, "s", Turns.turn("t" + i, corpus[i][0], corpus[i][1])));
                    assertThat(r.status()).as(r.body()).isEqualTo(201);
                }
            }
        }
        Embeddings.awaitVectors(lucene, Api.query("userId", user), Duration.ofSeconds(180));
        Embeddings.awaitVectors(a, Api.query("userId", user), Duration.ofSeconds(180));
        awaitIndexedOnce();
        String[] queries = {"puppy chewing", "Lisbon train", "sourdough bread recipe", "telescope for a beginner"};
        for (String mode : List.of("full_text", "vector", "hybrid")) {
            for (String query : queries) {
                List<String> onLucene = turnsOf(top(lucene, user, query, mode, 2));
                List<String> onOpenSearch = turnsOf(top(a, user, query, mode, 2));
                assertThat(onLucene).as("%s \"%s\" on Lucene", mode, query).isNotEmpty();
                assertThat(onOpenSearch)
                        .as("%s \"%s\" on OpenSearch against Lucene", mode, query)
                        .isEqualTo(onLucene);
                assertThat(owners(a, user, query, mode))
                        .as("scope of %s", mode)
                        .isNotEmpty()
                        .containsOnly(user);
            }
        }
        // Issue 36 item 4: the node has neural-search, so hybrid ran as one hybrid query through the service's
        // pipeline, and no engine query failed on the way (a failure would have turned it client-side).
        for (Api api : List.of(a, b)) {
            JsonNode check = searchCheck(api);
            assertThat(check.get("data").get("hybrid").asText())
                    .as(check.toString())
                    .isEqualTo("engine");
            assertThat(check.get("data").get("hybridDetail").asText()).startsWith("rrf (k=10) through pipeline");
        }
        assertThat(searchCheck(lucene).get("data").get("hybrid").asText()).isEqualTo("client-side");
    }

    /** @return the {@code memory-search} check of the server's readiness */
    private static JsonNode searchCheck(Api api) throws Exception {
        Api.Response ready =
                api.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(api.management() + "/health/ready")));
        for (JsonNode c : ready.json().get("checks")) {
            if (c.get("name").asText().equals("memory-search")) {
                return c;
            }
        }
        throw new AssertionError("no memory-search check in " + ready.body());
    }

    @Test
    @Order(2)
    void eightClientsOverTwoNodesLoseAndDuplicateNothing() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        int clients = 8;
        int turnsPerClient = 20;
        int conversations = 4;
        List<Api> nodes = List.of(a, b);
        List<List<String>> written = Concurrently.run(clients, c -> {
            List<String> tokens = new ArrayList<>();
            Api api = nodes.get(c % 2);
            for (int i = 0; i < turnsPerClient; i++) {
                String token = "tok" + run + "c" + c + "i" + i;
                String user = "two-" + run + "-" + (i % conversations);
                Api.Response r = api.post(
                        "/turns",
                        Turns.addTurn(
                                "scale",
                                user,
                                "s",
                                Turns.turn("c" + c + "-" + i, "question " + token, "answer about " + token)));
                assertThat(r.status()).as(r.body()).isEqualTo(201);
                tokens.add(token);
            }
            return tokens;
        });
        // Every conversation holds exactly the turns written to it, numbered without gaps.
        int expectedTurns = clients * turnsPerClient;
        try (Connection db = Databases.connect(ScaleOutCluster.jdbc())) {
            assertThat(count(
                            db,
                            "SELECT count(*) FROM turn t JOIN conversation c ON c.id = t.conversation_id"
                                    + " WHERE c.user_id LIKE 'two-" + run + "-%'"))
                    .isEqualTo(expectedTurns);
            assertThat(count(
                            db,
                            "SELECT count(DISTINCT (t.conversation_id, t.seq)) FROM turn t JOIN conversation c"
                                    + " ON c.id = t.conversation_id WHERE c.user_id LIKE 'two-" + run + "-%'"))
                    .as("no two turns share a number")
                    .isEqualTo(expectedTurns);
        }
        awaitIndexedOnce();
        // A write on either node is found once by a search on the other, and on itself.
        for (int c = 0; c < clients; c++) {
            Api other = nodes.get((c + 1) % 2);
            for (String token : written.get(c)) {
                int i = Integer.parseInt(token.substring(token.lastIndexOf('i') + 1));
                String user = "two-" + run + "-" + (i % conversations);
                assertThat(fullText(other, user, token))
                        .as("messages of %s found through %s", token, other)
                        .hasSize(2);
            }
        }
    }

    @Test
    @Order(3)
    void writesSucceedWhileTheSearchEngineIsDownAndBecomeSearchableOnceItReturns() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        search.stop();
        try {
            writeAndRecallWhileDown(run);
        } finally {
            search.start(Duration.ofMinutes(2));
        }
        Duration drained = awaitIndexedOnce();
        System.out.printf(
                "[scale-out] backlog indexed %.1f s after the search engine was started again%n",
                drained.toMillis() / 1000.0);
        for (int i = 0; i < TURNS_DURING_OUTAGE; i += 97) {
            String user = "down-" + run + "-" + (i % 10);
            assertThat(fullText(b, user, run + "q" + i)).as("turn %d", i).hasSize(2);
        }
        List<JsonNode> recalled = Episodes.recall(
                a, Episodes.ns("outage-" + run, "down-" + run), "situation " + run + "e7", "full_text", 3);
        assertThat(recalled).isNotEmpty();
    }

    private static final int TURNS_DURING_OUTAGE = 800;

    private static void writeAndRecallWhileDown(String run) {
        Instant stopped = Instant.now();
        int turns = TURNS_DURING_OUTAGE;
        int episodes = 200;
        AtomicInteger failed = new AtomicInteger();
        List<Api> nodes = List.of(a, b);
        Concurrently.run(8, c -> {
            Api api = nodes.get(c % 2);
            for (int i = c; i < turns; i += 8) {
                Api.Response r = api.post(
                        "/turns",
                        Turns.addTurn(
                                "outage",
                                "down-" + run + "-" + (i % 10),
                                "s",
                                Turns.turn(
                                        "t" + i,
                                        "outage question " + run + "q" + i,
                                        "outage answer " + run + "q" + i)));
                if (r.status() != 201) {
                    failed.incrementAndGet();
                    System.out.println("[scale-out] turn during the outage answered " + r.status() + ": " + r.body());
                }
            }
            for (int i = c; i < episodes; i += 8) {
                Api.Response r = api.post(
                        "/episodes",
                        Episodes.episode(
                                Episodes.ns("outage-" + run, "down-" + run),
                                "situation " + run + "e" + i,
                                "action " + i,
                                "SUCCESS"));
                if (r.status() != 201) {
                    failed.incrementAndGet();
                    System.out.println(
                            "[scale-out] episode during the outage answered " + r.status() + ": " + r.body());
                }
            }
            return null;
        });
        assertThat(failed).as("writes refused while the search engine was down").hasValue(0);

        // Recall says the search engine is unavailable: 503, Retry-After, a problem without a stack trace.
        for (Api api : nodes) {
            Api.Response recall = api.post(
                    "/messages/search",
                    obj("userId", "down-" + run + "-1", "query", "outage question", "mode", "full_text"));
            assertThat(recall.status()).as(recall.body()).isEqualTo(503);
            assertThat(recall.header("Retry-After")).isNotBlank();
            assertThat(recall.contentType()).startsWith("application/problem+json");
            assertThat(recall.body()).containsIgnoringCase("search engine").doesNotContain("Exception", "at org.");
            // Readiness stays up (writes work) and says the search engine is degraded.
            Api.Response ready = api.send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(api.management() + "/health/ready")));
            assertThat(ready.status()).as(ready.body()).isEqualTo(200);
            JsonNode check = null;
            for (JsonNode c : ready.json().get("checks")) {
                if (c.get("name").asText().equals("memory-search")) {
                    check = c;
                }
            }
            assertThat(check).as(ready.body()).isNotNull();
            assertThat(check.get("status").asText()).isEqualTo("UP");
            assertThat(check.get("data").get("search").asText()).isEqualTo("degraded");
            assertThat(check.get("data").get("clusterStatus").asText()).isEqualTo("unreachable");
        }
        System.out.printf(
                "[scale-out] %d turns and %d episodes written in %.1f s with the search engine down%n",
                turns, episodes, Duration.between(stopped, Instant.now()).toMillis() / 1000.0);
    }

    @Test
    @Order(4)
    void aMassReindexOnOpenSearchGivesTheSameResults() throws Exception {
        String user = "reindex-" + UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < 12; i++) {
            Api.Response r = b.post(
                    "/turns",
                    Turns.addTurn("reindex", user, "s", Turns.turn("t" + i, "reindex question " + i, "kiwi " + i)));
            assertThat(r.status()).as(r.body()).isEqualTo(201);
        }
        awaitIndexedOnce();
        Embeddings.awaitVectors(a, Api.query("userId", user), Duration.ofSeconds(180));
        Map<String, List<String>> before = new LinkedHashMap<>();
        for (String mode : List.of("full_text", "vector", "hybrid")) {
            before.put(mode, snapshot(a, user, mode));
        }
        Api.Response started = a.post("/admin/reindex", "");
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        JsonNode status = a.get("/admin/reindex").json();
        while ("running".equals(status.get("state").asText()) && Instant.now().isBefore(deadline)) {
            Thread.sleep(200);
            status = a.get("/admin/reindex").json();
        }
        assertThat(status.get("state").asText()).as(status.toString()).isEqualTo("done");
        awaitIndexedOnce();
        for (String mode : before.keySet()) {
            assertThat(snapshot(b, user, mode)).as(mode).isEqualTo(before.get(mode));
        }
    }

    @Test
    @Order(5)
    void housekeepingRunsOnceAcrossBothNodesAndNoMessageIsEmbeddedTwice() throws Exception {
        Map<String, Long> before = runs(a);
        Map<String, Long> hereBefore = runsHere(a, b);
        Instant start = Instant.now();
        Thread.sleep(24_000);
        Map<String, Long> after = runs(a);
        Map<String, Long> hereAfter = runsHere(a, b);
        double periods = Duration.between(start, Instant.now()).toMillis() / (double) HOUSEKEEPING_PERIOD_MS;
        for (String task : List.of("omission-purge", "episode-expiry")) {
            long cluster = after.getOrDefault(task, 0L) - before.getOrDefault(task, 0L);
            long servers = hereAfter.getOrDefault(task, 0L) - hereBefore.getOrDefault(task, 0L);
            assertThat(cluster)
                    .as("%s runs in %.1f periods across two servers", task, periods)
                    .isBetween((long) Math.floor(periods) - 2, (long) Math.ceil(periods) + 1);
            assertThat(servers)
                    .as("%s: the servers' own counts add up to the shared row's", task)
                    .isEqualTo(cluster);
        }
        // Every message has its vector, and the two embedders together embedded each one once.
        try (Connection db = Databases.connect(ScaleOutCluster.jdbc())) {
            Instant deadline = Instant.now().plus(INDEXED);
            long waiting = count(db, "SELECT count(*) FROM turn_message WHERE embedding IS NULL");
            while (waiting > 0 && Instant.now().isBefore(deadline)) {
                Thread.sleep(1_000);
                waiting = count(db, "SELECT count(*) FROM turn_message WHERE embedding IS NULL");
            }
            assertThat(waiting).as("messages still without a vector").isZero();
            long embedded = count(db, "SELECT count(*) FROM turn_message");
            long byA =
                    a.get("/admin/housekeeping").json().get("messagesEmbedded").asLong();
            long byB =
                    b.get("/admin/housekeeping").json().get("messagesEmbedded").asLong();
            System.out.printf(
                    "[scale-out] messages embedded: %d by node A, %d by node B, %d rows%n", byA, byB, embedded);
            assertThat(byA + byB).isEqualTo(embedded);
        }
    }

    /** The housekeeping period of the cluster's servers (memory.housekeeping.*-seconds in it.node.java.opts). */
    private static final long HOUSEKEEPING_PERIOD_MS = 4_000;

    /** @return the shared run count of each task, read through one server */
    private static Map<String, Long> runs(Api api) {
        Api.Response r = api.get("/admin/housekeeping");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        Map<String, Long> runs = new LinkedHashMap<>();
        r.json()
                .get("tasks")
                .forEach(t -> runs.put(t.get("task").asText(), t.get("runCount").asLong()));
        return runs;
    }

    /** @return the runs each task had on the given servers, added up */
    private static Map<String, Long> runsHere(Api... servers) {
        Map<String, Long> sum = new LinkedHashMap<>();
        for (Api api : servers) {
            api.get("/admin/housekeeping")
                    .json()
                    .get("runsHere")
                    .fields()
                    .forEachRemaining(e -> sum.merge(e.getKey(), e.getValue().asLong(), Long::sum));
        }
        return sum;
    }

    @Test
    @Order(6)
    void writesCommittedJustBeforeAKill9AreIndexedByTheOtherNode() throws Exception {
        String user = "killed-" + UUID.randomUUID().toString().substring(0, 8);
        StringBuilder lines = new StringBuilder();
        int turns = 300;
        for (int i = 0; i < turns; i++) {
            lines.append(Api.JSON.writeValueAsString(obj(
                            "key",
                            obj("chatbotId", "kill", "userId", user, "sessionId", "s"),
                            "turn",
                            Turns.turn("t" + i, "last words " + user + "w" + i, "reply " + i))))
                    .append('\n');
        }
        Api.Response imported = a.postRaw("/import", lines.toString(), "application/x-ndjson");
        assertThat(imported.status()).as(imported.body()).isEqualTo(200);
        nodeA.kill();
        long pendingAtKill;
        try (Connection db = Databases.connect(ScaleOutCluster.jdbc())) {
            pendingAtKill = count(db, "SELECT count(*) FROM hsearch_outbox_event");
        }
        System.out.println("[scale-out] outbox events pending when node A was killed: " + pendingAtKill);
        Duration indexed = awaitIndexedOnce();
        System.out.printf(
                "[scale-out] node B indexed node A's backlog %.1f s after the kill%n", indexed.toMillis() / 1000.0);
        for (int i = 0; i < turns; i += 37) {
            assertThat(fullText(b, user, user + "w" + i)).as("turn %d", i).hasSize(1);
        }
    }

    // --- helpers ---

    /**
     * Waits until every indexed table has exactly as many documents in OpenSearch as rows (none missing; a document
     * is written by its row's id, so none doubled) and no outbox event is aborted. Events may remain pending: the
     * background embedder keeps giving vectors to messages, and each vector is one more event.
     *
     * @return how long that took
     */
    private static Duration awaitIndexedOnce() throws Exception {
        Instant start = Instant.now();
        Instant deadline = start.plus(INDEXED);
        String last = "";
        try (Connection db = Databases.connect(ScaleOutCluster.jdbc())) {
            while (Instant.now().isBefore(deadline)) {
                long messages = count(db, "SELECT count(*) FROM turn_message");
                long episodes = count(db, "SELECT count(*) FROM episode");
                long aborted = count(db, "SELECT count(*) FROM hsearch_outbox_event WHERE status = 'ABORTED'");
                long messageDocs = search.count("turn_message");
                long episodeDocs = search.count("episode");
                last = "rows " + messages + "/" + episodes + ", documents " + messageDocs + "/" + episodeDocs
                        + ", aborted outbox events " + aborted;
                if (aborted == 0 && messages == messageDocs && episodes == episodeDocs) {
                    return Duration.between(start, Instant.now());
                }
                Thread.sleep(500);
            }
        }
        throw new AssertionError("not every row indexed exactly once within " + INDEXED + ": " + last);
    }

    private static long count(Connection db, String sql) throws Exception {
        try (Statement s = db.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<JsonNode> fullText(Api api, String user, String query) {
        Api.Response r = api.post("/messages/search", obj("userId", user, "query", query, "mode", "full_text"));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> hits = new ArrayList<>();
        r.json().get("hits").forEach(h -> {
            if (h.get("content").asText().contains(query)) {
                hits.add(h);
            }
        });
        return hits;
    }

    private static List<String> top(Api api, String user, String query, String mode, int k) {
        Api.Response r = api.post("/messages/search", obj("userId", user, "query", query, "mode", mode, "topK", k));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        r.json()
                .get("hits")
                .forEach(h ->
                        ids.add(h.get("turnId").asText() + "/" + h.get("role").asText()));
        return ids.subList(0, Math.min(k, ids.size()));
    }

    /**
     * What a reindex must keep: the best hit's turn, then every message hit in id order (equal BM25 scores of the
     * corpus's messages may come back in another order from a rebuilt index).
     */
    private static List<String> snapshot(Api api, String user, String mode) {
        List<String> hits = top(api, user, "kiwi 7 reindex question", mode, 50);
        List<String> snapshot = new ArrayList<>(turnsOf(hits));
        snapshot.addAll(hits.stream().sorted().toList());
        return snapshot;
    }

    /** The turns of ranked messages, first occurrence: the user message and the reply of a turn may swap places. */
    private static List<String> turnsOf(List<String> messages) {
        return messages.stream()
                .map(m -> m.substring(0, m.indexOf('/')))
                .distinct()
                .limit(1)
                .toList();
    }

    private static List<String> owners(Api api, String user, String query, String mode) {
        Api.Response r = api.post("/messages/search", obj("userId", user, "query", query, "mode", mode, "topK", 20));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<String> owners = new ArrayList<>();
        r.json().get("hits").forEach(h -> owners.add(h.get("userId").asText()));
        return owners;
    }
}
