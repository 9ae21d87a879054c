package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Embeddings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Conversation recall against the real Lucene index inside both servers: turns written through the JSONL import
 * are searchable per message (user message and response on their own, with turn id, role and external id) in
 * full-text, vector and hybrid mode, scoped to a user or a conversation; clearing a conversation removes its
 * messages from recall; a mass reindex rebuilds the index from the database with identical results.
 */
class ConversationRecallIT {

    static List<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2());
    }

    private static Map<String, Object> line(
            String user, String session, String turnId, String question, String qId, String answer, String aId) {
        return Api.obj(
                "key",
                Api.obj("chatbotId", "recall-it", "userId", user, "sessionId", session),
                "turn",
                Api.obj(
                        "turnId",
                        turnId,
                        "userMessage",
                        question,
                        "assistantResponse",
                        answer,
                        "metadata",
                        Api.obj("dia_id", qId, "speaker", "Mia", "reply_dia_id", aId, "reply_speaker", "Leo")));
    }

    private static void importLines(Api api, List<Map<String, Object>> lines) throws Exception {
        StringBuilder body = new StringBuilder();
        for (Map<String, Object> l : lines) {
            body.append(Api.JSON.writeValueAsString(l)).append('\n');
        }
        Api.Response r = api.postRaw("/import", body.toString(), "application/x-ndjson");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get("errors")).isEmpty();
    }

    private static List<JsonNode> search(Api api, Map<String, Object> body) {
        if (!"full_text".equals(body.get("mode"))) {
            String scope = body.get("userId") != null
                    ? Api.query("userId", (String) body.get("userId"))
                    : Api.query("conversationId", String.valueOf(body.get("conversationId")));
            Embeddings.awaitVectors(api, scope, Duration.ofSeconds(120));
        }
        Api.Response r = api.post("/messages/search", body);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> hits = new ArrayList<>();
        r.json().get("hits").forEach(hits::add);
        return hits;
    }

    @ParameterizedTest
    @MethodSource("servers")
    void messagesAreSearchablePerRoleScopedAndRebuiltIdentically(Api api) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String mia = "mia\"\\*" + run;
        String other = "mia\"\\*" + run + "-other";
        importLines(
                api,
                List.of(
                        line(
                                mia,
                                "s1",
                                "t1",
                                "I adopted a golden retriever puppy last weekend!",
                                "D1:1",
                                "That's wonderful, what did you name the puppy?",
                                "D1:2"),
                        line(
                                mia,
                                "s1",
                                "t2",
                                "We called him Biscuit and he loves the beach.",
                                "D1:3",
                                "Biscuit is a lovely name for a dog.",
                                "D1:4"),
                        line(
                                mia,
                                "s2",
                                "t3",
                                "My pottery class starts on Tuesday evenings.",
                                "D2:1",
                                "Ceramics sounds relaxing; what will you make first?",
                                "D2:2"),
                        line(
                                other,
                                "s1",
                                "t1",
                                "I adopted a golden retriever puppy last weekend!",
                                "X1:1",
                                "Another user's puppy story.",
                                "X1:2")));

        for (String mode : List.of("full_text", "vector", "hybrid")) {
            List<JsonNode> hits = search(
                    api,
                    Api.obj(
                            "userId",
                            mia,
                            "query",
                            "What is the name of the dog Mia adopted?",
                            "mode",
                            mode,
                            "topK",
                            10));
            assertThat(hits)
                    .as(mode)
                    .isNotEmpty()
                    .allSatisfy(h -> assertThat(h.get("userId").asText()).isEqualTo(mia));
            assertThat(hits)
                    .as(mode)
                    .extracting(h -> h.get("externalId").asText())
                    .doesNotContain("X1:1", "X1:2")
                    .contains("D1:3");
        }
        List<JsonNode> pottery =
                search(api, Api.obj("userId", mia, "query", "pottery class Tuesday", "mode", "full_text"));
        JsonNode top = pottery.get(0);
        assertThat(top.get("externalId").asText()).isEqualTo("D2:1");
        assertThat(top.get("role").asText()).isEqualTo("user");
        assertThat(top.get("turnId").asText()).isEqualTo("t3");
        assertThat(top.get("author").asText()).isEqualTo("Mia");
        assertThat(top.get("content").asText()).isEqualTo("My pottery class starts on Tuesday evenings.");
        assertThat(top.get("sessionId").asText()).isEqualTo("s2");
        JsonNode ceramics = search(api, Api.obj("userId", mia, "query", "ceramics relaxing", "mode", "full_text"))
                .get(0);
        assertThat(ceramics.get("role").asText()).isEqualTo("assistant");
        assertThat(ceramics.get("externalId").asText()).isEqualTo("D2:2");

        // Scoped to one conversation.
        long s1 = conversationId(api, mia, "s1");
        List<JsonNode> inS1 =
                search(api, Api.obj("conversationId", s1, "query", "pottery puppy beach", "mode", "hybrid"));
        assertThat(inS1)
                .isNotEmpty()
                .allSatisfy(h -> assertThat(h.get("conversationId").asLong()).isEqualTo(s1));

        // A mass reindex from the database gives identical results in every mode.
        Map<String, List<String>> before = snapshot(api, mia);
        assertThat(api.post("/admin/reindex", "").status()).isEqualTo(202);
        JsonNode status = awaitReindex(api);
        assertThat(status.get("state").asText()).isEqualTo("done");
        assertThat(status.get("documentsAdded").asLong()).isGreaterThanOrEqualTo(7);
        assertThat(snapshot(api, mia)).isEqualTo(before);

        // So does merging the indexes into one segment.
        Api.Response merge = api.post("/admin/reindex/merge", "");
        assertThat(merge.status()).as(merge.body()).isEqualTo(202);
        JsonNode merged = awaitReindex(api);
        assertThat(merged.get("state").asText()).isEqualTo("done");
        // "segments merged", or the automatic merge after a bulk write when one was running (H2 server).
        assertThat(merged.get("message").asText()).startsWith("segments merged");
        assertThat(snapshot(api, mia)).isEqualTo(before);

        // Clearing a conversation removes its messages from recall.
        assertThat(api.delete("/conversations/" + s1 + "/turns").status()).isEqualTo(200);
        assertThat(search(api, Api.obj("userId", mia, "query", "golden retriever puppy Biscuit", "mode", "full_text")))
                .extracting(h -> h.get("sessionId").asText())
                .doesNotContain("s1");
    }

    /**
     * Concurrent {@code addTurn} calls are group-committed, and the batch's writer does not wait for the index:
     * each call waits for its own messages instead. Every client finds its own turn by a word only it used, in
     * full-text recall, the moment its call returns.
     */
    @ParameterizedTest
    @MethodSource("servers")
    void concurrentlyAddedTurnsAreSearchableWhenTheirCallReturns(Api api) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String user = "recall-at-once-" + run;
        int clients = 8;
        int turnsEach = 10;
        List<List<String>> misses = Concurrently.run(clients, client -> {
            List<String> missed = new ArrayList<>();
            for (int i = 0; i < turnsEach; i++) {
                String word = "zq" + run + "x" + client + "y" + i;
                Api.Response r = api.post(
                        "/turns",
                        Api.obj(
                                "chatbotId",
                                "recall-it",
                                "userId",
                                user,
                                "sessionId",
                                "s" + (i % 3),
                                "turn",
                                Api.obj(
                                        "turnId",
                                        "c" + client + "-" + i,
                                        "userMessage",
                                        "Remember the code word " + word + " please.",
                                        "assistantResponse",
                                        "Noted.")));
                assertThat(r.status()).as(r.body()).isEqualTo(201);
                List<JsonNode> hits = search(api, Api.obj("userId", user, "query", word, "mode", "full_text"));
                if (hits.isEmpty() || !hits.get(0).get("content").asText().contains(word)) {
                    missed.add(word);
                }
            }
            return missed;
        });
        assertThat(misses).allSatisfy(m -> assertThat(m).isEmpty());
    }

    /**
     * An import of several batches (memory.import.batch-lines is 1,000: here 1,000 + 1,000 + 1 lines) writes each
     * batch's index entries in the background while the next batch is stored; the answer waits for all of them, so
     * every imported message is searchable the moment the import returns: from the first batch, the second one and
     * the last line, a batch of its own.
     */
    @ParameterizedTest
    @MethodSource("servers")
    void everyBatchOfALargeImportIsSearchableWhenTheImportReturns(Api api) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String user = "bulk-" + run;
        String[] words = {
            "albatross",
            "zeppelin",
            "quokka",
            "marmalade",
            "sextant",
            "kumquat",
            "tamarind",
            "gazpacho",
            "obelisk",
            "yodeling",
            "origami",
            "xylophone",
            "wombat"
        };
        int total = 2_001;
        List<Map<String, Object>> lines = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            // Each line names a distinct pair of rare words, so a two-word query matches exactly one message best.
            String a = words[i % words.length];
            String b = words[(i / words.length) % words.length];
            lines.add(line(
                    user,
                    "s" + (i % 5),
                    "t" + i,
                    "Line " + i + " mentions " + a + " and " + b + " together.",
                    "Q" + i,
                    "Noted, line " + i + ".",
                    "A" + i));
        }
        importLines(api, lines);
        for (int i : new int[] {0, 500, 999, 1_000, 1_700, total - 1}) {
            String a = words[i % words.length];
            String b = words[(i / words.length) % words.length];
            List<JsonNode> hits =
                    search(api, Api.obj("userId", user, "query", a + " " + b, "mode", "full_text", "topK", 50));
            assertThat(hits)
                    .as("line %d", i)
                    .extracting(h -> h.get("externalId").asText())
                    .contains("Q" + i);
        }
    }

    private static long conversationId(Api api, String user, String session) {
        return api.get("/conversations/lookup"
                        + Api.query("userId", user, "sessionId", session, "chatbotId", "recall-it"))
                .json()
                .get("conversationId")
                .asLong();
    }

    private static Map<String, List<String>> snapshot(Api api, String user) {
        Map<String, List<String>> out = new java.util.TreeMap<>();
        for (String mode : List.of("full_text", "vector", "hybrid")) {
            for (String q : List.of("dog name", "pottery evenings", "beach")) {
                List<String> ids = new ArrayList<>();
                for (JsonNode h : search(api, Api.obj("userId", user, "query", q, "mode", mode))) {
                    // Cosine similarities do not depend on index statistics; BM25 and fused scores do (a rebuilt
                    // index has no deleted documents left), so those compare by order.
                    ids.add(h.get("externalId").asText()
                            + (mode.equals("vector")
                                    ? "@"
                                            + String.format(
                                                    java.util.Locale.ROOT,
                                                    "%.4f",
                                                    h.get("score").asDouble())
                                    : ""));
                }
                out.put(mode + "/" + q, ids);
            }
        }
        return out;
    }

    /** Polls the reindex status until it is no longer running (bounded: 60 s). */
    private static JsonNode awaitReindex(Api api) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        JsonNode status = api.get("/admin/reindex").json();
        while ("running".equals(status.get("state").asText()) && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
            status = api.get("/admin/reindex").json();
        }
        return status;
    }
}
