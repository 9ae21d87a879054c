package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.turn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.net.URI;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Turns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Conversation memory over REST on a real WildFly, once on PostgreSQL and once on the embedded H2 default:
 * round trips, order, idempotency, ids, paging, token counts, time zones, metadata versions.
 */
class ConversationRestIT {

    private static final Encoding O200K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    static Stream<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2()).stream();
    }

    private static JsonNode history(Api api, long id) {
        Api.Response r = api.get("/conversations/" + id);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void turnWithTwoInvocationsOneFailedWithoutOutputReadsBackEqualFieldByField(Api api) {
        String user = unique("rt");
        Map<String, Object> t = obj(
                "turnId", "t-1",
                "userMessage", "List /tmp and read notes.txt",
                "assistantResponse", "Here is notes.txt; /nope does not exist.",
                "contextUsed", "retrieved: notes index",
                "toolsUsed", List.of("read_file", "bash"),
                "timestamp", "2026-03-29T01:30:00.123456Z",
                "metadata", obj("model", "gpt-4o", "usage", obj("input_tokens", 812, "output_tokens", 40)),
                "error", "one tool failed",
                "toolInvocations",
                        List.of(
                                obj(
                                        "toolName",
                                        "read_file",
                                        "input",
                                        obj("path", "/tmp/notes.txt", "encoding", "utf-8"),
                                        "output",
                                        "meeting at 10",
                                        "status",
                                        "completed",
                                        "elapsedMs",
                                        12,
                                        "wmKey",
                                        "wm:notes"),
                                obj(
                                        "toolName",
                                        "bash",
                                        "input",
                                        obj("command", "ls /nope"),
                                        "status",
                                        "error",
                                        "error",
                                        "ls: cannot access '/nope': No such file or directory",
                                        "elapsedMs",
                                        3)));
        Api.Response created = api.post("/turns", addTurn("bot-α", user, "s1", t));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        long id = created.json().get("conversationId").asLong();

        JsonNode back = history(api, id).get("turns").get(0);
        assertThat(back.get("turnId").asText()).isEqualTo("t-1");
        assertThat(back.get("sequence").asLong()).isEqualTo(1);
        assertThat(back.get("userId").asText()).isEqualTo(user);
        assertThat(back.get("chatbotId").asText()).isEqualTo("bot-α");
        assertThat(back.get("userMessage").asText()).isEqualTo("List /tmp and read notes.txt");
        assertThat(back.get("assistantResponse").asText()).isEqualTo("Here is notes.txt; /nope does not exist.");
        assertThat(back.get("contextUsed").asText()).isEqualTo("retrieved: notes index");
        assertThat(back.get("toolsUsed").toString()).isEqualTo("[\"read_file\",\"bash\"]");
        assertThat(back.get("timestamp").asText()).isEqualTo("2026-03-29T01:30:00.123456Z");
        assertThat(back.get("metadata").toString())
                .isEqualTo("{\"model\":\"gpt-4o\",\"usage\":{\"input_tokens\":812,\"output_tokens\":40}}");
        assertThat(back.get("error").asText()).isEqualTo("one tool failed");
        assertThat(back.get("state").asText()).isEqualTo("raw");
        assertThat(back.get("schemaVersion").asInt()).isEqualTo(2);
        assertThat(back.get("normVersion").asText()).isEqualTo("1");
        JsonNode read = back.get("toolInvocations").get(0);
        assertThat(read.get("toolName").asText()).isEqualTo("read_file");
        assertThat(read.get("input").toString()).isEqualTo("{\"encoding\":\"utf-8\",\"path\":\"/tmp/notes.txt\"}");
        assertThat(read.get("output").asText()).isEqualTo("meeting at 10");
        assertThat(read.get("status").asText()).isEqualTo("completed");
        assertThat(read.get("elapsedMs").asLong()).isEqualTo(12);
        assertThat(read.get("wmKey").asText()).isEqualTo("wm:notes");
        assertThat(read.get("error").isNull()).isTrue();
        JsonNode bash = back.get("toolInvocations").get(1);
        assertThat(bash.get("toolName").asText()).isEqualTo("bash");
        assertThat(bash.get("output").isNull()).isTrue();
        assertThat(bash.get("status").asText()).isEqualTo("error");
        assertThat(bash.get("error").asText()).isEqualTo("ls: cannot access '/nope': No such file or directory");
        assertThat(bash.get("omitted").size()).isZero();

        int tools = count("{\"encoding\":\"utf-8\",\"path\":\"/tmp/notes.txt\"}")
                + count("meeting at 10")
                + count("{\"command\":\"ls /nope\"}")
                + count("ls: cannot access '/nope': No such file or directory");
        JsonNode tokens = back.get("tokenCount");
        assertThat(tokens.get("user").asInt()).isEqualTo(count("List /tmp and read notes.txt"));
        assertThat(tokens.get("assistant").asInt()).isEqualTo(count("Here is notes.txt; /nope does not exist."));
        assertThat(tokens.get("tools").asInt()).isEqualTo(tools);
        assertThat(tokens.get("total").asInt())
                .isEqualTo(tokens.get("user").asInt() + tokens.get("assistant").asInt() + tools);
        assertThat(tokens.get("tokenizer").asText()).isEqualTo("o200k_base");
    }

    private static int count(String text) {
        return O200K.countTokensOrdinary(text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void orderComesFromTheSequenceNeverFromTimestamps(Api api) {
        String user = unique("order");
        // One batch of 50 whose timestamps run backwards, then 50 single appends all stamped with one instant.
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Map<String, Object> t = turn("b" + i, "batch " + i, "ok " + i);
            t.put(
                    "timestamp",
                    Instant.parse("2026-01-01T00:00:00Z").minusSeconds(i).toString());
            batch.add(t);
        }
        Api.Response r = api.post("/turns/batch", obj("userId", user, "sessionId", "s", "turns", batch));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        long id = r.json().get(0).get("conversationId").asLong();
        for (int i = 0; i < 50; i++) {
            Map<String, Object> t = turn("q" + i, "quick " + i, "ok " + i);
            t.put("timestamp", "2025-06-01T12:00:00Z");
            assertThat(api.post("/turns", addTurn(null, user, "s", t)).status()).isEqualTo(201);
        }
        List<String> expected = new ArrayList<>();
        IntStream.range(0, 50).forEach(i -> expected.add("b" + i));
        IntStream.range(0, 50).forEach(i -> expected.add("q" + i));
        for (int read = 0; read < 20; read++) {
            JsonNode h = history(api, id);
            assertThat(Turns.turnIds(h)).containsExactlyElementsOf(expected);
            assertThat(Turns.sequences(h))
                    .isEqualTo(IntStream.rangeClosed(1, 100)
                            .mapToObj(Long::valueOf)
                            .toList());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void theSameTurnIdTwiceStoresOneTurn(Api api) {
        String user = unique("idem");
        Map<String, Object> body = addTurn(null, user, "s", turn("same", "hello", "hi"));
        Api.Response first = api.post("/turns", body);
        Api.Response second = api.post("/turns", body);
        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.json().get("created").asBoolean()).isFalse();
        assertThat(second.json().at("/turn/sequence").asLong()).isEqualTo(1);
        JsonNode h = history(api, first.json().get("conversationId").asLong());
        assertThat(Turns.turnIds(h)).containsExactly("same");

        // Concurrently, to a conversation that does not exist yet.
        String user2 = unique("idem-c");
        Map<String, Object> body2 = addTurn(null, user2, "s", turn("same", "hello", "hi"));
        List<Integer> statuses =
                Concurrently.run(8, i -> api.post("/turns", body2).status());
        assertThat(statuses).allMatch(s -> s == 200 || s == 201);
        assertThat(statuses).filteredOn(s -> s == 201).hasSize(1);
        JsonNode h2 = api.get("/conversations/lookup" + query("userId", user2, "sessionId", "s"))
                .json();
        assertThat(Turns.turnIds(h2)).containsExactly("same");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void idsWithSlashesPercentQuotesEmojiAndCjkRoundTripExactly(Api api) {
        String run = unique("");
        List<String> ids = List.of(
                "a/b" + run,
                "a%2Fb" + run,
                "with space " + run,
                "quote\"d'" + run,
                "emoji😀" + run,
                "漢字ユーザー" + run,
                "back\\slash" + run,
                "?&=#" + run,
                " lead and trail " + run + " ");
        Set<Long> conversations = new HashSet<>();
        for (String id : ids) {
            Api.Response r = api.post("/turns", addTurn(id, id, id, turn("t", "q", "a")));
            assertThat(r.status()).as("%s: %s", id, r.body()).isEqualTo(201);
            conversations.add(r.json().get("conversationId").asLong());
            JsonNode h = api.get("/conversations/lookup" + query("userId", id, "sessionId", id, "chatbotId", id))
                    .json();
            assertThat(h.at("/key/userId").asText()).isEqualTo(id);
            assertThat(h.at("/key/sessionId").asText()).isEqualTo(id);
            assertThat(h.at("/key/chatbotId").asText()).isEqualTo(id);
            JsonNode listed = api.get("/conversations" + query("userId", id)).json();
            assertThat(listed.get("items")).hasSize(1);
            assertThat(listed.at("/items/0/key/sessionId").asText()).isEqualTo(id);
        }
        assertThat(conversations)
                .as("a/b and a%%2Fb (and all others) are distinct")
                .hasSize(ids.size());
        assertThat(api.get("/chatbots/stats" + query("chatbotId", "a/b" + run))
                        .json()
                        .get("totalConversations")
                        .asLong())
                .isEqualTo(1);

        assertRejected(api, "bad\u0007bell", "userId", "control-character");
        assertRejected(api, "nul\u0000", "userId", "control-character");
        assertRejected(api, "", "userId", "not-empty");
        assertRejected(api, "   ", "userId", "not-blank");
        assertRejected(api, "😀".repeat(129), "userId", "max-length");
        assertThat(api.post("/turns", addTurn(null, "😀".repeat(128), "s", turn("t", "q", "a")))
                        .status())
                .isEqualTo(201);
        // An unpaired surrogate cannot be stored in UTF-8: rejected, not silently replaced.
        Api.Response lone = api.postRaw(
                "/turns",
                "{\"userId\":\"x\\ud83d\",\"sessionId\":\"s\",\"turn\":{\"turnId\":\"t\"}}",
                "application/json");
        assertThat(lone.status()).isEqualTo(400);
        assertThat(lone.json().get("field").asText()).isEqualTo("userId");
        assertThat(lone.json().get("rule").asText()).isEqualTo("unpaired-surrogate");
    }

    private static void assertRejected(Api api, String userId, String field, String rule) {
        Api.Response r = api.post("/turns", addTurn(null, userId, "s", turn("t", "q", "a")));
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.json().get("field").asText()).isEqualTo(field);
        assertThat(r.json().get("rule").asText()).isEqualTo(rule);
        assertThat(r.json().get("detail").asText()).contains(field);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void pagesAreBoundedAndHaveNoGapsOrRepeats(Api api) {
        String user = unique("pages");
        for (int i = 0; i < 250; i++) {
            Api.Response r = api.post("/conversations", obj("userId", user, "sessionId", "s" + i));
            assertThat(r.status()).as(r.body()).isEqualTo(201);
        }
        Set<String> seen = new HashSet<>();
        List<Integer> sizes = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = api.get("/conversations" + query("userId", user, "limit", "100", "cursor", cursor))
                    .json();
            sizes.add(page.get("items").size());
            page.get("items")
                    .forEach(c -> assertThat(seen.add(c.at("/key/sessionId").asText()))
                            .isTrue());
            cursor = page.get("nextCursor").isNull()
                    ? null
                    : page.get("nextCursor").asText();
        } while (cursor != null);
        assertThat(sizes).containsExactly(100, 100, 50);
        assertThat(seen).hasSize(250);

        for (String bad : List.of("0", "-1", "1001", "abc", "")) {
            Api.Response r = api.get("/conversations" + query("userId", user, "limit", bad));
            assertThat(r.status()).as("limit=%s", bad).isEqualTo(400);
            assertThat(r.json().get("field").asText()).isEqualTo("limit");
        }
        Api.Response badCursor = api.get("/conversations" + query("userId", user, "cursor", "not-a-cursor"));
        assertThat(badCursor.status()).isEqualTo(400);
        assertThat(badCursor.json().get("field").asText()).isEqualTo("cursor");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void tokenCountsAreJtokkitO200kAndClientCountsAreIgnored(Api api) {
        String user = unique("tokens");
        String cjk = "漢字かな交じり文と한국어".repeat(200).substring(0, 2000);
        String emoji = "🎉😀👩‍💻🚀".repeat(50);
        String ascii = "The quick brown fox jumps over the lazy dog. ".repeat(20);
        Map<String, Object> t = turn("t", cjk, emoji);
        t.put("contextUsed", ascii);
        t.put("tokenCount", obj("user", 1, "assistant", 1, "tools", 0, "total", 2, "tokenizer", "o200k_base"));
        Api.Response r = api.post("/turns", addTurn(null, user, "s", t));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        JsonNode tokens = r.json().at("/turn/tokenCount");
        assertThat(cjk.codePointCount(0, cjk.length())).isEqualTo(2000);
        assertThat(tokens.get("user").asInt()).isEqualTo(count(cjk)).isGreaterThan(1000);
        assertThat(tokens.get("assistant").asInt()).isEqualTo(count(emoji));
        assertThat(tokens.get("total").asInt())
                .as("contextUsed is never counted")
                .isEqualTo(count(cjk) + count(emoji));

        Api.Response plain = api.post("/turns", addTurn(null, user, "s", turn("t2", ascii, "ok")));
        assertThat(plain.json().at("/turn/tokenCount/user").asInt()).isEqualTo(count(ascii.stripTrailing()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void timestampsAreStoredAndReturnedInUtcWhateverTheZones(Api api) {
        String user = unique("time");
        Map<String, Object> t = turn("t", "q", "a");
        t.put("timestamp", "2026-03-29T01:30:00.123456789+05:30");
        Api.Response r = api.post("/turns", addTurn(null, user, "s", t));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        JsonNode h = history(api, r.json().get("conversationId").asLong());
        assertThat(h.at("/turns/0/timestamp").asText()).isEqualTo("2026-03-28T20:00:00.123456Z");
        assertThat(h.get("createdAt").asText()).endsWith("Z");
        Instant created = Instant.parse(h.get("createdAt").asText());
        assertThat(created)
                .isBetween(Instant.now().minusSeconds(120), Instant.now().plusSeconds(120));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void badJsonIsA400ProblemNeverA5xx(Api api) {
        String[] bodies = {
            "{\"userId\":null,\"sessionId\":\"s\",\"turn\":{}}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":null}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{},\"unknown\":1}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"userMessage\":42}}",
            "{\"userId\":7,\"sessionId\":\"s\",\"turn\":{}}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolInvocations\":[null]}}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolInvocations\":[{\"input\":{}}]}}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolInvocations\":[{\"toolName\":\"x\",\"status\":\"weird\"}]}}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolInvocations\":[{\"toolName\":\"x\",\"input\":[1,2]}]}}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"timestamp\":\"yesterday\"}}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolsUsed\":[null]}}",
            "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolInvocations\":[{\"toolName\":\"x\",\"elapsedMs\":-5}]}}",
            "{\"userId\":\"u\",\"sessio",
            "[1,2,3]",
            "",
            "null",
            "{\"userId\":\"u\",\"userId\":\"v\",\"sessionId\":\"s\",\"turn\":{}}",
        };
        for (String body : bodies) {
            Api.Response r = api.postRaw("/turns", body, "application/json");
            assertThat(r.status()).as("%s -> %s", body, r.body()).isEqualTo(400);
            assertThat(r.contentType()).as(body).startsWith("application/problem+json");
            assertThat(r.json().get("status").asInt()).isEqualTo(400);
            assertThat(r.json().get("detail").asText())
                    .isNotBlank()
                    .doesNotContainPattern("Exception|Record\\b|org\\.agentmemory|java\\.|FAIL_ON|Coercion|`");
        }
        Api.Response missing = api.postRaw("/turns", "{\"sessionId\":\"s\",\"turn\":{}}", "application/json");
        assertThat(missing.json().get("field").asText()).isEqualTo("userId");
        assertThat(missing.json().get("detail").asText()).isEqualTo("userId is required");
        Api.Response unknown = api.postRaw(
                "/turns", "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{},\"unknown\":1}", "application/json");
        assertThat(unknown.json().get("field").asText()).isEqualTo("unknown");
        assertThat(unknown.json().get("rule").asText()).isEqualTo("unknown-property");
        Api.Response wrongType = api.postRaw(
                "/turns", "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"userMessage\":42}}", "application/json");
        assertThat(wrongType.json().get("field").asText()).isEqualTo("turn.userMessage");
        Api.Response nameless = api.postRaw(
                "/turns",
                "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolInvocations\":[{\"input\":{}}]}}",
                "application/json");
        assertThat(nameless.json().get("field").asText()).isEqualTo("turn.toolInvocations[0].toolName");
        Api.Response nullInvocation = api.postRaw(
                "/turns",
                "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolInvocations\":[null]}}",
                "application/json");
        assertThat(nullInvocation.status()).isEqualTo(400);
        assertThat(nullInvocation.json().get("field").asText()).isEqualTo("turn.toolInvocations[0]");
        assertThat(nullInvocation.json().get("detail").asText()).doesNotContain("NullPointer");
        Api.Response nullTool = api.postRaw(
                "/turns",
                "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolsUsed\":[\"a\",null]}}",
                "application/json");
        assertThat(nullTool.status()).isEqualTo(400);
        assertThat(nullTool.json().get("field").asText()).isEqualTo("turn.toolsUsed[1]");
        Api.Response longKey = api.postRaw(
                "/turns",
                "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"toolInvocations\":"
                        + "[{\"toolName\":\"t\",\"wmKey\":\"" + "k".repeat(2_000) + "\"}]}}",
                "application/json");
        assertThat(longKey.status()).as(longKey.body()).isEqualTo(400);
        assertThat(longKey.json().get("field").asText()).isEqualTo("turn.toolInvocations[0].wmKey");
        assertThat(longKey.json().get("rule").asText()).isEqualTo("max-length");
        Api.Response farFuture = api.postRaw(
                "/turns",
                "{\"userId\":\"u\",\"sessionId\":\"s\",\"turn\":{\"timestamp\":\"+20000-01-01T00:00:00Z\"}}",
                "application/json");
        assertThat(farFuture.status()).as(farFuture.body()).isEqualTo(400);
        assertThat(farFuture.json().get("field").asText()).isEqualTo("turn.timestamp");
        assertThat(farFuture.json().get("rule").asText()).isEqualTo("range");
        Api.Response wrongMedia = api.postRaw("/turns", "userId=u", "application/x-www-form-urlencoded");
        assertThat(wrongMedia.status()).isEqualTo(415);
        assertThat(wrongMedia.contentType()).startsWith("application/problem+json");
        assertThat(wrongMedia.json().get("detail").asText())
                .contains("application/x-www-form-urlencoded")
                .doesNotContain("RESTEASY");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void a201NamesTheStoredTurnInLocationAndThatTurnReadsBackAlone(Api api) {
        String user = unique("loc");
        Api.Response first =
                api.post("/turns", addTurn("bot", user, "s/1", turn("loc-1", "first question", "first answer")));
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        long id = first.json().get("conversationId").asLong();
        assertThat(first.header("Location")).endsWith("/api/v1/conversations/" + id + "/turns/1");
        Api.Response read = api.send(
                HttpRequest.newBuilder(URI.create(first.header("Location"))).GET());
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        assertThat(read.json()).isEqualTo(history(api, id).get("turns").get(0));
        assertThat(read.json().get("turnId").asText()).isEqualTo("loc-1");

        Api.Response repeated =
                api.post("/turns", addTurn("bot", user, "s/1", turn("loc-1", "first question", "first answer")));
        assertThat(repeated.status()).isEqualTo(200);
        assertThat(repeated.header("Location")).as("nothing was created").isNull();

        Api.Response second =
                api.post("/conversations/" + id + "/turns", turn("loc-2", "second question", "second answer"));
        assertThat(second.status()).as(second.body()).isEqualTo(201);
        assertThat(second.header("Location")).endsWith("/api/v1/conversations/" + id + "/turns/2");
        Api.Response readSecond = api.send(
                HttpRequest.newBuilder(URI.create(second.header("Location"))).GET());
        assertThat(readSecond.json().get("turnId").asText()).isEqualTo("loc-2");
        assertThat(readSecond.json().get("sequence").asLong()).isEqualTo(2);

        assertProblem(api.get("/conversations/" + id + "/turns/3"), 404, null);
        assertProblem(api.get("/conversations/" + id + "/turns/0"), 400, "sequence");
        assertProblem(api.get("/conversations/" + id + "/turns/-1"), 400, "sequence");
        assertProblem(api.get("/conversations/" + id + "/turns/two"), 400, "sequence");
        assertProblem(api.get("/conversations/" + id + "/turns/99999999999999999999"), 400, "sequence");
        assertProblem(api.get("/conversations/987654321987/turns/1"), 404, null);

        assertThat(api.delete("/conversations/" + id + "/turns").status()).isEqualTo(200);
        assertProblem(api.get("/conversations/" + id + "/turns/1"), 404, null);
        Api.Response third = api.post("/conversations/" + id + "/turns", turn("loc-3", "q", "a"));
        assertThat(third.header("Location"))
                .as("sequences keep growing after a clear")
                .endsWith("/api/v1/conversations/" + id + "/turns/3");
        assertThat(api.get("/conversations/" + id + "/turns/3")
                        .json()
                        .get("turnId")
                        .asText())
                .isEqualTo("loc-3");
    }

    private static void assertProblem(Api.Response r, int status, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        if (field != null) {
            assertThat(r.json().get("field").asText()).isEqualTo(field);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void historyLifecycleMetadataVersionsAndErrors(Api api) {
        String user = unique("life");
        Api.Response created = api.post(
                "/conversations",
                obj("userId", user, "sessionId", "s", "chatbotId", "bot", "metadata", obj("topic", "billing")));
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("Location"))
                .endsWith("/api/v1/conversations/"
                        + created.json().get("conversationId").asLong());
        long id = created.json().get("conversationId").asLong();
        Api.Response again = api.post(
                "/conversations",
                obj("userId", user, "sessionId", "s", "chatbotId", "bot", "metadata", obj("topic", "ignored")));
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().at("/metadata/topic").asText()).isEqualTo("billing");

        Api.Response meta = api.get("/conversations/" + id + "/metadata");
        String etag = meta.header("ETag");
        assertThat(etag).isNotNull();
        Api.Response replaced =
                api.put("/conversations/" + id + "/metadata", obj("topic", "refunds"), "If-Match", etag);
        assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
        assertThat(replaced.header("ETag")).isNotEqualTo(etag);
        Api.Response stale = api.put("/conversations/" + id + "/metadata", obj("topic", "lost"), "If-Match", etag);
        assertThat(stale.status()).isEqualTo(412);
        assertThat(stale.contentType()).startsWith("application/problem+json");
        assertThat(api.get("/conversations/" + id + "/metadata")
                        .json()
                        .at("/metadata/topic")
                        .asText())
                .isEqualTo("refunds");

        api.post("/conversations/" + id + "/turns", turn("t1", "q", "a"));
        api.post("/conversations/" + id + "/turns", turn("t2", "q", "a"));
        JsonNode stats = api.get("/chatbots/stats" + query("chatbotId", "bot")).json();
        assertThat(stats.get("totalTurns").asLong()).isGreaterThanOrEqualTo(2);
        JsonNode users = api.get("/chatbots/users" + query("chatbotId", "bot", "limit", "1000"))
                .json();
        assertThat(users.get("items").toString()).contains(user);

        Api.Response cleared = api.delete("/conversations/" + id + "/turns");
        assertThat(cleared.json().get("removedTurns").asLong()).isEqualTo(2);
        assertThat(history(api, id).get("turns")).isEmpty();
        assertThat(history(api, id).at("/metadata/topic").asText()).isEqualTo("refunds");
        assertThat(api.post("/conversations/" + id + "/turns", turn("t3", "q", "a"))
                        .json()
                        .at("/turn/sequence")
                        .asLong())
                .as("sequences keep growing after a clear")
                .isEqualTo(3);

        assertThat(api.delete("/conversations/" + id).status()).isEqualTo(204);
        Api.Response gone = api.get("/conversations/" + id);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.contentType()).startsWith("application/problem+json");
        assertThat(api.delete("/conversations/" + id).status()).isEqualTo(404);
        assertThat(api.get("/conversations/not-a-number").status()).isEqualTo(404);
        assertThat(api.get("/no-such-resource").contentType()).startsWith("application/problem+json");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void bodiesOverTheLimitAre413AndWriteNothing(Api api) {
        String user = unique("big");
        String huge = "x".repeat(9 * 1024 * 1024);
        Api.Response r = api.post("/turns", addTurn(null, user, "s", turn("t", huge, "a")));
        assertThat(r.status()).isEqualTo(413);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(api.get("/conversations" + query("userId", user)).json().get("items"))
                .isEmpty();
    }

    /**
     * A line that passes every input rule but that the database rejects (here a PostgreSQL trigger refuses
     * it) is reported alone: the rest of its batch is stored, and a conversation created only for it is removed.
     */
    @Test
    void aLineTheDatabaseRejectsIsReportedAloneAndLeavesNoEmptyConversation() throws Exception {
        Api api = Api.postgres();
        String user = unique("poison");
        String marker = "poison" + Long.toHexString(System.nanoTime());
        try (Connection db = DriverManager.getConnection(
                        "jdbc:postgresql://" + System.getProperty("it.pg.host", "127.0.0.1") + ":"
                                + System.getProperty("it.pg.port", "5432") + "/"
                                + System.getProperty("it.pg.database", "agent_memory_it"),
                        System.getProperty("it.pg.user", "postgres"),
                        System.getProperty("it.pg.password", "postgres"));
                Statement sql = db.createStatement()) {
            sql.execute("CREATE FUNCTION it_" + marker + "() RETURNS trigger AS $$ BEGIN IF NEW.user_message LIKE '%"
                    + marker
                    + "%' THEN RAISE EXCEPTION 'rejected by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql");
            sql.execute("CREATE TRIGGER it_" + marker + " BEFORE INSERT ON turn FOR EACH ROW EXECUTE FUNCTION it_"
                    + marker + "()");
            try {
                String[][] lines = {
                    {"s1", "first"},
                    {"s1", "second"},
                    {"s2", marker},
                    {"s1", "third"},
                    {"s3", "only"},
                    {"s3", "also " + marker}
                };
                StringBuilder body = new StringBuilder();
                for (int i = 0; i < lines.length; i++) {
                    body.append(Api.JSON.writeValueAsString(obj(
                                    "key",
                                    obj("userId", user, "sessionId", lines[i][0]),
                                    "turn",
                                    obj("turnId", "t" + i, "userMessage", lines[i][1], "assistantResponse", "ok"))))
                            .append('\n');
                }
                Api.Response r = api.postRaw("/import", body.toString(), "application/x-ndjson");
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                JsonNode report = r.json();
                assertThat(report.get("linesRead").asLong()).isEqualTo(6);
                assertThat(report.get("turnsImported").asLong()).isEqualTo(4);
                assertThat(report.get("conversationsCreated").asLong())
                        .as(report.toString())
                        .isEqualTo(2);
                assertThat(report.get("errors")).hasSize(2);
                assertThat(report.at("/errors/0/line").asLong()).isEqualTo(3);
                assertThat(report.at("/errors/1/line").asLong()).isEqualTo(6);
                assertThat(report.at("/errors/0/message").asText())
                        .startsWith("could not be stored")
                        .contains("error id")
                        .doesNotContain("Exception");

                JsonNode sessions =
                        api.get("/conversations" + query("userId", user)).json().get("items");
                List<String> names = new ArrayList<>();
                sessions.forEach(c -> names.add(c.at("/key/sessionId").asText()));
                assertThat(names).containsExactlyInAnyOrder("s1", "s3");
                long s1 = api.get("/conversations/lookup" + query("userId", user, "sessionId", "s1"))
                        .json()
                        .get("conversationId")
                        .asLong();
                List<String> s1Messages = new ArrayList<>();
                api.get("/conversations/" + s1)
                        .json()
                        .get("turns")
                        .forEach(t -> s1Messages.add(t.get("userMessage").asText()));
                assertThat(s1Messages).containsExactly("first", "second", "third");
            } finally {
                sql.execute("DROP TRIGGER IF EXISTS it_" + marker + " ON turn");
                sql.execute("DROP FUNCTION IF EXISTS it_" + marker + "()");
            }
        }
    }
}
