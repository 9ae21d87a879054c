package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.turn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.net.URI;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.agentmemory.conversation.control.Normalizer;
import org.agentmemory.it.support.Api;
import org.agentmemory.omission.control.ContentIds;
import org.agentmemory.omission.control.Previews;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The write path of issue 3 over REST on real servers: normalization, oversize offload into the omission
 * store, calibration, metadata merges, turns from a model's reply, answer memory.
 */
class WritePathIT {

    private static final Encoding O200K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    static Stream<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2()).stream();
    }

    private static JsonNode post(Api api, String path, Object body, int expected) {
        Api.Response r = api.post(path, body);
        assertThat(r.status()).as(r.body()).isEqualTo(expected);
        return r.json();
    }

    /**
     * Message texts are bounded (InputRules: 262,144 code points; tool outputs 1,048,576): multi-megabyte values
     * once exhausted the heap in the BPE counter, aborted the JVM in the embedding tokenizer and, on H2, corrupted
     * the database file. At the limit a one-"word" message is stored, counted and embedded by its head, three at
     * once; one code point more is a 400 (REST) or a line error (import); a megabyte tool output is offloaded.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void messagesAtTheSizeLimitAreStoredAndLargerOnesRejected(Api api) throws Exception {
        String user = unique("huge");
        String word = "x".repeat(262_144);
        List<Integer> statuses = Concurrently.run(
                3,
                client -> api.post("/turns", addTurn(null, user, "s" + client, turn("h1", word, "ok")))
                        .status());
        assertThat(statuses).containsOnly(201);
        JsonNode stored = api.get("/conversations/lookup" + query("userId", user, "sessionId", "s0"))
                .json();
        JsonNode turn = api.get("/conversations/" + stored.get("conversationId").asLong())
                .json()
                .at("/turns/0");
        assertThat(turn.get("userMessage").asText()).isEqualTo(word);
        assertThat(turn.at("/tokenCount/user").asLong()).isBetween(262_144L / 16, 262_144L);

        Api.Response tooLong = api.post("/turns", addTurn(null, user, "s0", turn("h2", word + "y", "ok")));
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.json().get("field").asText()).isEqualTo("turn.userMessage");
        assertThat(tooLong.json().get("rule").asText()).isEqualTo("max-length");

        Map<String, Object> withOutput = turn("h3", "read the file", "done");
        String output = "z".repeat(1_000_000);
        withOutput.put("toolInvocations", List.of(obj("toolName", "read_file", "output", output)));
        JsonNode offloaded = post(api, "/turns", addTurn(null, user, "s0", withOutput), 201);
        assertThat(offloaded.at("/turn/toolInvocations/0/outputChars").asInt()).isEqualTo(1_000_000);
        assertThat(api.get("/conversations/" + offloaded.get("conversationId").asLong() + "/omissions/"
                                + ContentIds.contentId(output))
                        .body())
                .isEqualTo(output);

        String good = Api.JSON.writeValueAsString(obj(
                "key",
                obj("userId", user, "sessionId", "imported"),
                "turn",
                obj("turnId", "i1", "userMessage", "\u4e2d".repeat(262_144), "assistantResponse", "ok")));
        String bad = Api.JSON.writeValueAsString(obj(
                "key",
                obj("userId", user, "sessionId", "imported"),
                "turn",
                obj("turnId", "i2", "userMessage", "\u4e2d".repeat(262_145), "assistantResponse", "ok")));
        Api.Response imported = api.postRaw("/import", good + "\n" + bad + "\n", "application/x-ndjson");
        assertThat(imported.status()).as(imported.body()).isEqualTo(200);
        assertThat(imported.json().get("turnsImported").asLong())
                .as(imported.body())
                .isEqualTo(1);
        assertThat(imported.json().at("/errors/0/line").asLong()).isEqualTo(2);
        assertThat(imported.json().at("/errors/0/field").asText()).isEqualTo("turn.userMessage");

        // Message ids and speakers longer than their 512-character columns are capped so that both databases,
        // which count characters differently (H2: UTF-16 units), accept them.
        Map<String, Object> astral = turn("h4", "still here?", "yes");
        astral.put("metadata", obj("dia_id", "\uD83D\uDE00".repeat(300), "speaker", "\uD83D\uDE00".repeat(300)));
        JsonNode after =
                post(api, "/turns", addTurn(null, user, "s0", astral), 201).get("turn");
        assertThat(after.get("sequence").asLong()).isEqualTo(3);

        // Each merge patch is bounded, and so is the metadata they add up to.
        long id = stored.get("conversationId").asLong();
        String half = "m".repeat(600_000);
        for (int k = 0; k < 2; k++) {
            Api.Response merged = api.send(HttpRequest.newBuilder(api.uri("/conversations/" + id + "/metadata"))
                    .header("Content-Type", "application/merge-patch+json")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"k" + k + "\":\"" + half + "\"}")));
            assertThat(merged.status()).as(merged.body()).isEqualTo(k == 0 ? 200 : 400);
            if (k == 1) {
                assertThat(merged.json().get("field").asText()).isEqualTo("metadata");
                assertThat(merged.json().get("rule").asText()).isEqualTo("max-size");
            }
        }

        // A turn of many fields, each within its own limit, is bounded as a whole.
        Map<String, Object> crowded = turn("h5", "many inputs", "ok");
        List<Object> invocations = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            invocations.add(obj("toolName", "write_file", "input", obj("content", "c".repeat(800_000))));
        }
        crowded.put("toolInvocations", invocations);
        Api.Response tooMuch = api.post("/turns", addTurn(null, user, "s0", crowded));
        assertThat(tooMuch.status()).as(tooMuch.body()).isEqualTo(400);
        assertThat(tooMuch.json().get("field").asText()).isEqualTo("turn");
        assertThat(tooMuch.json().get("rule").asText()).isEqualTo("max-size");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void messyInputIsStoredInItsCanonicalForm(Api api) {
        String user = unique("norm");
        String ansiLog =
                "\u001b[32mPASS\u001b[0m test_a   \r\n\u001b[31mFAIL\u001b[0m test_b\r\n\r\n\r\n\r\n\r\ndone\u0007";
        String traceback = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    main()\n"
                + "  File \"a.py\", line 5, in main\n    run()\n  File \"a.py\", line 9, in run\n    step()\n"
                + "  File \"a.py\", line 12, in step\n    raise ValueError('bad')\nValueError: bad\n";
        Map<String, Object> t = turn("t", "Cafe\u0301 \t \r\nmenu  ", "ok");
        t.put(
                "toolInvocations",
                List.of(
                        obj("toolName", "pytest", "input", obj("z", 1, "a", obj("y", 2, "b", 3)), "output", ansiLog),
                        obj(
                                "toolName",
                                "api",
                                "input",
                                obj(),
                                "output",
                                "{ \"b\": 1,\n \"a\": [1, 2] }",
                                "status",
                                "error",
                                "error",
                                traceback)));
        JsonNode stored = post(api, "/turns", addTurn(null, user, "s", t), 201).get("turn");
        assertThat(stored.get("userMessage").asText())
                .isEqualTo("Caf\u00e9\nmenu")
                .isEqualTo(Normalizer.normalizeText("Cafe\u0301 \t \r\nmenu  "));
        JsonNode pytest = stored.at("/toolInvocations/0");
        assertThat(pytest.get("input").toString()).isEqualTo("{\"a\":{\"b\":3,\"y\":2},\"z\":1}");
        assertThat(pytest.get("output").asText()).isEqualTo("PASS test_a\nFAIL test_b\n\n\ndone");
        JsonNode apiCall = stored.at("/toolInvocations/1");
        assertThat(apiCall.get("output").asText()).isEqualTo("{\"a\":[1,2],\"b\":1}");
        assertThat(apiCall.get("error").asText())
                .isEqualTo(Normalizer.normalizeError(traceback))
                .startsWith("Traceback (most recent call last):\n  File \"a.py\", line 5")
                .endsWith("ValueError: bad");
        assertThat(stored.get("normVersion").asText()).isEqualTo("1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void oversizedOutputsAreOffloadedOnceAndComeBackByteForByte(Api api) throws Exception {
        String user = unique("offload");
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 50_000; i++) {
            text.append("row ").append(i).append(": value=").append(i * 7).append(" ok 漢字\n");
        }
        String output = text.substring(0, 50_000).stripTrailing();
        Map<String, Object> t = turn("t1", "dump the table", "done");
        t.put(
                "toolInvocations",
                List.of(obj("toolName", "query_database", "input", obj("sql", "select *"), "output", output)));
        JsonNode first = post(api, "/turns", addTurn(null, user, "s", t), 201);
        long id = first.get("conversationId").asLong();
        JsonNode inv = first.at("/turn/toolInvocations/0");
        String contentId = ContentIds.contentId(output);
        assertThat(inv.get("output").asText())
                .isEqualTo(Previews.preview(output))
                .isEqualTo(output.substring(0, 200) + " \u2026(+"
                        + String.format(java.util.Locale.ROOT, "%,d", output.codePointCount(0, output.length()) - 200)
                        + " chars)");
        assertThat(inv.at("/omitted/output").asText()).isEqualTo(contentId);
        assertThat(inv.get("outputChars").asInt()).isEqualTo(output.codePointCount(0, output.length()));
        assertThat(first.at("/turn/tokenCount/tools").asInt())
                .as("recounted after offload")
                .isLessThan(O200K.countTokensOrdinary(output));

        Api.Response content = api.get("/conversations/" + id + "/omissions/" + contentId);
        assertThat(content.status()).isEqualTo(200);
        assertThat(content.contentType()).startsWith("text/plain");
        assertThat(content.body()).isEqualTo(output);
        Api.Response head = api.send(HttpRequest.newBuilder(api.uri("/conversations/" + id + "/omissions/" + contentId))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.status()).isEqualTo(200);

        // The same output in a second turn is stored once; both turns list it.
        t.put("turnId", "t2");
        post(api, "/turns", addTurn(null, user, "s", t), 201);
        JsonNode t1Omissions = api.get("/conversations/" + id + "/omissions" + query("turnId", "t1"))
                .json();
        assertThat(t1Omissions.get("items").toString()).isEqualTo("[\"" + contentId + "\"]");
        assertThat(t1Omissions.hasNonNull("nextCursor"))
                .as("the last page has no next cursor")
                .isFalse();
        assertThat(api.get("/conversations/" + id + "/omissions" + query("turnId", "t2"))
                        .json()
                        .get("items")
                        .toString())
                .isEqualTo("[\"" + contentId + "\"]");

        Api.Response unknown = api.get("/conversations/" + id + "/omissions/om_0000000000000000");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().get("detail").asText())
                .isEqualTo(
                        "Omitted content om_0000000000000000 is unknown or may have expired \u2014 re-run the tool to regenerate it.");
        assertThat(api.send(HttpRequest.newBuilder(api.uri("/conversations/" + id + "/omissions/om_0000000000000000"))
                                .method("HEAD", HttpRequest.BodyPublishers.noBody()))
                        .status())
                .isEqualTo(404);

        // An export is a complete backup: the offloaded output comes back in full, and importing it under another
        // user offloads it again with the same content id, retrievable in the new conversation.
        Api.Response export = api.get("/export" + query("userId", user));
        assertThat(export.status()).isEqualTo(200);
        String[] exported = export.body().split("\n");
        assertThat(exported).hasSize(2);
        JsonNode exportedInvocation = Api.JSON.readTree(exported[0]).at("/turn/toolInvocations/0");
        assertThat(exportedInvocation.get("output").asText()).isEqualTo(output);
        assertThat(exportedInvocation.path("omitted").path("output").isMissingNode())
                .isTrue();
        String copy = unique("restored");
        String moved = export.body().replace("\"userId\":\"" + user + "\"", "\"userId\":\"" + copy + "\"");
        Api.Response restored = api.postRaw("/import", moved, "application/x-ndjson");
        assertThat(restored.status()).as(restored.body()).isEqualTo(200);
        assertThat(restored.json().get("turnsImported").asLong())
                .as(restored.body())
                .isEqualTo(2);
        long copyId = api.get("/conversations/lookup" + query("userId", copy, "sessionId", "s"))
                .json()
                .get("conversationId")
                .asLong();
        JsonNode copiedInvocation = api.get("/conversations/" + copyId).json().at("/turns/0/toolInvocations/0");
        assertThat(copiedInvocation.at("/omitted/output").asText()).isEqualTo(contentId);
        assertThat(copiedInvocation.get("output").asText())
                .isEqualTo(inv.get("output").asText());
        assertThat(api.get("/conversations/" + copyId + "/omissions/" + contentId)
                        .body())
                .isEqualTo(output);

        // Clearing the history clears its omissions.
        // The background embedder may hold the new messages' rows; a lock wait past H2's timeout answers 503 busy.
        Api.Response cleared = api.delete("/conversations/" + id + "/turns");
        for (int attempt = 0; cleared.status() == 503 && attempt < 5; attempt++) {
            assertThat(cleared.header("Retry-After")).as(cleared.body()).isNotNull();
            cleared = api.delete("/conversations/" + id + "/turns");
        }
        assertThat(cleared.status()).as(cleared.body()).isBetween(200, 204);
        assertThat(api.get("/conversations/" + id + "/omissions/" + contentId).status())
                .isEqualTo(404);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anOutputOfExactlyTheThresholdStaysAndOneTokenMoreIsOffloaded(Api api) {
        String user = unique("threshold");
        String atThreshold = " dog".repeat(2000);
        String overThreshold = atThreshold + " dog";
        assertThat(O200K.countTokensOrdinary(atThreshold)).isEqualTo(2000);
        assertThat(O200K.countTokensOrdinary(overThreshold)).isEqualTo(2001);
        Map<String, Object> t1 = turn("at", "q", "a");
        t1.put("toolInvocations", List.of(obj("toolName", "x", "output", atThreshold)));
        Map<String, Object> t2 = turn("over", "q", "a");
        t2.put("toolInvocations", List.of(obj("toolName", "x", "output", overThreshold)));
        JsonNode at = post(api, "/turns", addTurn(null, user, "s", t1), 201).at("/turn/toolInvocations/0");
        JsonNode over = post(api, "/turns", addTurn(null, user, "s", t2), 201).at("/turn/toolInvocations/0");
        assertThat(at.get("output").asText()).isEqualTo(atThreshold);
        assertThat(at.get("omitted").size()).isZero();
        assertThat(over.get("output").asText()).isEqualTo(Previews.preview(overThreshold));
        assertThat(over.at("/omitted/output").asText()).isEqualTo(ContentIds.contentId(overThreshold));
    }

    @Test
    void eightClientsPostingIdenticalOversizedOutputsAtOnceStoreOneOmissionRow() throws Exception {
        Api api = Api.postgres();
        String user = unique("omit-conc");
        String output = "identical output line\n".repeat(3000).stripTrailing();
        List<Integer> statuses = Concurrently.run(8, client -> {
            Map<String, Object> t = turn("c" + client, "q", "a");
            t.put("toolInvocations", List.of(obj("toolName", "bash", "output", output)));
            return api.post("/turns", addTurn(null, user, "s", t)).status();
        });
        assertThat(statuses).containsOnly(201);
        long id = api.get("/conversations/lookup" + query("userId", user, "sessionId", "s"))
                .json()
                .get("conversationId")
                .asLong();
        try (Connection db = DriverManager.getConnection(
                        "jdbc:postgresql://" + System.getProperty("it.pg.host", "127.0.0.1") + ":"
                                + System.getProperty("it.pg.port", "5432") + "/"
                                + System.getProperty("it.pg.database", "agent_memory_it"),
                        System.getProperty("it.pg.user", "postgres"),
                        System.getProperty("it.pg.password", "postgres"));
                PreparedStatement ps = db.prepareStatement("SELECT count(*) FROM omission WHERE conversation_id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(1);
            }
        }
        for (int client = 0; client < 8; client++) {
            assertThat(api.get("/conversations/" + id + "/omissions" + query("turnId", "c" + client))
                            .json()
                            .get("items"))
                    .hasSize(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void compactionCommitsFoldTheCalibrationStateWithTheExactEwma(Api api) {
        String user = unique("calib");
        double[][] rounds = {{1000, 1200}, {1000, 800}, {1000, 5000}, {1000, 10_000}, {1000, 100}};
        double[] expected = {1.2, 0.2 * 0.8 + 0.8 * 1.2, 0.2 * 5 + 0.8 * 1.12, 2.0, Math.max(0.5, 0.2 * 0.1 + 0.8 * 2.0)
        };
        long id = 0;
        for (int i = 0; i < rounds.length; i++) {
            Map<String, Object> t = turn("r" + i, "q", "a");
            t.put("metadata", obj("usage", obj("input_tokens", (long) rounds[i][1])));
            Map<String, Object> body = addTurn(null, user, "s", t);
            body.put(
                    "compaction",
                    obj(
                            "promptEstimate",
                            (long) rounds[i][0],
                            "boundaryTurnId",
                            i == 2 ? "r1" : null,
                            "stage2Needed",
                            i == 1,
                            "historyEstimate",
                            0,
                            "droppedTurns",
                            0,
                            "available",
                            100_000));
            id = post(api, "/turns", body, 201).get("conversationId").asLong();
            JsonNode state =
                    api.get("/conversations/" + id + "/metadata").json().at("/metadata/compaction");
            assertThat(state.get("calibration").asDouble()).as("round %d", i).isCloseTo(expected[i], within(1e-9));
            assertThat(state.get("samples").asInt()).isEqualTo(i + 1);
            assertThat(state.get("tokenizer").asText()).isEqualTo("o200k_base");
            assertThat(state.get("stage2_needed").asBoolean()).as("sticky").isEqualTo(i >= 1);
            assertThat(
                            state.get("boundary_turn_id").isNull()
                                            || state.get("boundary_turn_id").isMissingNode()
                                    ? null
                                    : state.get("boundary_turn_id").asText())
                    .isEqualTo(i >= 2 ? "r1" : null);
            assertThat(state.get("updated_at").asText()).endsWith("Z");
        }
        // A partial save reports usage without a turn; a degenerate sample changes nothing.
        JsonNode reported = post(
                api,
                "/turns/usage",
                obj("userId", user, "sessionId", "s", "promptEstimate", 1000, "providerPromptTokens", 1000),
                200);
        assertThat(reported.get("calibration").asDouble()).isCloseTo(0.2 * 1.0 + 0.8 * expected[4], within(1e-9));
        assertThat(reported.get("samples").asInt()).isEqualTo(6);
        assertThat(post(
                                api,
                                "/turns/usage",
                                obj("userId", user, "sessionId", "s", "promptEstimate", 0, "providerPromptTokens", 10),
                                200)
                        .get("samples")
                        .asInt())
                .isEqualTo(6);
        assertThat(api.post(
                                "/turns/usage",
                                obj(
                                        "userId",
                                        unique("nobody"),
                                        "sessionId",
                                        "s",
                                        "promptEstimate",
                                        10,
                                        "providerPromptTokens",
                                        10))
                        .status())
                .isEqualTo(404);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void concurrentWritersMergingDifferentKeysLoseNothing(Api api) {
        // 8 writers x 25 patches of their own keys at once. Merges used to be optimistic only: a writer could lose
        // the compare-and-set memory.metadata.merge-attempts times in a row and get a 409 (2 writers x 100 patches
        // failed once on a fast machine; 8 x 50 lost 5-9 patches per run). They now lock the row: none may fail.
        String user = unique("merge");
        long id = post(
                        api,
                        "/conversations",
                        obj("userId", user, "sessionId", "s", "metadata", obj("owner", "app")),
                        201)
                .get("conversationId")
                .asLong();
        int writers = 8;
        int patches = 25;
        List<List<Integer>> refused = Concurrently.run(writers, writer -> {
            List<Integer> statuses = new ArrayList<>();
            for (int k = 0; k < patches; k++) {
                Api.Response r = api.send(HttpRequest.newBuilder(api.uri("/conversations/" + id + "/metadata"))
                        .header("Content-Type", "application/merge-patch+json")
                        .method(
                                "PATCH",
                                HttpRequest.BodyPublishers.ofString(
                                        "{\"w" + writer + "\":{\"k" + k + "\":" + k + "}}")));
                if (r.status() != 200) {
                    statuses.add(r.status());
                }
            }
            return statuses;
        });
        assertThat(refused)
                .as("non-200 statuses per writer")
                .allSatisfy(statuses -> assertThat(statuses).isEmpty());
        JsonNode metadata = api.get("/conversations/" + id + "/metadata").json().get("metadata");
        Set<String> keys = new HashSet<>();
        for (int writer = 0; writer < writers; writer++) {
            String name = "w" + writer;
            metadata.get(name).fieldNames().forEachRemaining(k -> keys.add(name + "." + k));
        }
        assertThat(keys).hasSize(writers * patches);
        assertThat(metadata.get("owner").asText()).isEqualTo("app");
        Api.Response removed = api.send(HttpRequest.newBuilder(api.uri("/conversations/" + id + "/metadata"))
                .header("Content-Type", "application/merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"w0\":null}")));
        assertThat(removed.json().get("metadata").has("w0")).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void turnsBuiltFromAModelReply(Api api) {
        String user = unique("aimsg");
        Map<String, Object> response = obj(
                "text",
                "The weather in Paris is 18 °C.",
                "model",
                "gpt-4o",
                "provider",
                "openai",
                "finishReason",
                "stop",
                "responseTime",
                1.25,
                "turnId",
                "resp-1",
                "usage",
                obj("prompt_tokens", 321, "completion_tokens", 12),
                "toolCalls",
                List.of(
                        obj(
                                "name",
                                "weather",
                                "arguments",
                                obj("city", "Paris"),
                                "result",
                                obj("temp", 18, "_tee", obj("key", "wm:weather:1")),
                                "executionTime",
                                0.2504),
                        obj("name", "news", "arguments", obj(), "error", "timeout after 5s", "executionTime", 5.0)));
        Api.Response created = api.post(
                "/turns/from-ai-message",
                obj("userId", user, "sessionId", "s", "userMessage", "Weather in Paris?", "response", response));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        long conversationId = created.json().get("conversationId").asLong();
        assertThat(created.header("Location")).endsWith("/api/v1/conversations/" + conversationId + "/turns/1");
        JsonNode turn = created.json().get("turn");
        Api.Response stored = api.send(
                HttpRequest.newBuilder(URI.create(created.header("Location"))).GET());
        assertThat(stored.status()).as(stored.body()).isEqualTo(200);
        assertThat(stored.json().get("turnId").asText()).isEqualTo("resp-1");
        assertThat(stored.json().get("toolsUsed")).isEqualTo(turn.get("toolsUsed"));
        // The same reply again (same turn id) is the same turn: 200, nothing created, so no Location.
        Api.Response repeated = api.post(
                "/turns/from-ai-message",
                obj("userId", user, "sessionId", "s", "userMessage", "Weather in Paris?", "response", response));
        assertThat(repeated.status()).as(repeated.body()).isEqualTo(200);
        assertThat(repeated.header("Location")).isNull();
        assertThat(repeated.json().at("/turn/sequence").asLong()).isEqualTo(1L);
        assertThat(turn.get("turnId").asText()).isEqualTo("resp-1");
        assertThat(turn.get("assistantResponse").asText()).isEqualTo("The weather in Paris is 18 °C.");
        assertThat(turn.get("toolsUsed").toString()).isEqualTo("[\"weather\",\"news\"]");
        assertThat(turn.at("/metadata/model").asText()).isEqualTo("gpt-4o");
        assertThat(turn.at("/metadata/finish_reason").asText()).isEqualTo("stop");
        assertThat(turn.at("/metadata/usage/prompt_tokens").asInt()).isEqualTo(321);
        JsonNode weather = turn.at("/toolInvocations/0");
        assertThat(weather.get("output").asText()).isEqualTo("{\"_tee\":{\"key\":\"wm:weather:1\"},\"temp\":18}");
        assertThat(weather.get("elapsedMs").asLong()).isEqualTo(250);
        assertThat(weather.get("wmKey").asText()).isEqualTo("wm:weather:1");
        JsonNode news = turn.at("/toolInvocations/1");
        assertThat(news.get("status").asText()).isEqualTo("error");
        assertThat(news.get("error").asText()).isEqualTo("timeout after 5s");

        // Explicit invocations replace the derived ones.
        JsonNode replaced = post(
                        api,
                        "/turns/from-ai-message",
                        obj(
                                "userId",
                                user,
                                "sessionId",
                                "s",
                                "turnId",
                                "explicit",
                                "userMessage",
                                "again",
                                "response",
                                response,
                                "toolInvocations",
                                List.of(obj("toolName", "cache", "output", "hit"))),
                        201)
                .get("turn");
        assertThat(replaced.get("toolInvocations")).hasSize(1);
        assertThat(replaced.at("/toolInvocations/0/toolName").asText()).isEqualTo("cache");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void answersAreStoredReplacedAndFetchedByTurnId(Api api) {
        String agent = unique("agent/α");
        Api.Response stored = api.put(
                "/answers",
                obj(
                        "agentId",
                        agent,
                        "turnId",
                        "t/1",
                        "question",
                        "2+2?",
                        "answer",
                        obj("value", 4, "explanation", "arithmetic")));
        assertThat(stored.status()).as(stored.body()).isEqualTo(200);
        JsonNode got =
                api.get("/answers" + query("agentId", agent, "turnId", "t/1")).json();
        assertThat(got.get("question").asText()).isEqualTo("2+2?");
        assertThat(got.at("/answer/value").asInt()).isEqualTo(4);
        api.put("/answers", obj("agentId", agent, "turnId", "t/1", "question", "2+2?", "answer", "four"));
        assertThat(api.get("/answers" + query("agentId", agent, "turnId", "t/1"))
                        .json()
                        .get("answer")
                        .asText())
                .isEqualTo("four");
        assertThat(api.get("/answers" + query("agentId", agent, "turnId", "other"))
                        .status())
                .isEqualTo(404);
        Api.Response missing = api.put("/answers", obj("agentId", agent, "question", "q"));
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.json().get("field").asText()).isEqualTo("turnId");
    }
}
