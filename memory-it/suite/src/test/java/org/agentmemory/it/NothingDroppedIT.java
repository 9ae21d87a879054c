package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.turn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Contexts;
import org.agentmemory.it.support.Episodes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nothing an agent sends is dropped with a 2xx, and status codes say what happened (issue 31 items 4, 6 and 8):
 * a tool-only turn is stored and rendered with its tool calls and results, an empty turn is a 400 naming its
 * fields, and an episode posted twice answers 200 with the id stored the first time.
 */
class NothingDroppedIT {

    static Stream<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aToolOnlyTurnIsStoredAndRenderedWithItsToolCallsAndResults(Api api) {
        String user = unique("tool-only");
        Map<String, Object> toolOnly = obj(
                "turnId",
                "t1",
                "userMessage",
                "What is the weather in Paris?",
                "assistantResponse",
                "",
                "toolInvocations",
                List.of(obj("toolName", "weather", "input", obj("city", "Paris"), "output", "18 C and sunny")));
        Api.Response first = api.post("/turns", addTurn("bot", user, "s", toolOnly));
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        long id = first.json().get("conversationId").asLong();
        assertThat(api.post("/turns", addTurn("bot", user, "s", turn("t2", "Thanks!", "You're welcome.")))
                        .status())
                .isEqualTo(201);

        JsonNode stored = api.get("/conversations/" + id + "/turns").json();
        assertThat(stored.get("turns")).hasSize(2);
        assertThat(stored.at("/turns/0/toolInvocations/0/output").asText()).isEqualTo("18 C and sunny");

        JsonNode context = Contexts.byId(api, id, obj("model", "gpt-4o"));
        List<String> contents = new ArrayList<>();
        context.get("messages")
                .forEach(m -> contents.add(
                        m.get("role").asText() + ": " + m.get("content").asText()));
        assertThat(contents).hasSize(4);
        assertThat(contents.get(0)).isEqualTo("user: What is the weather in Paris?");
        assertThat(contents.get(1))
                .startsWith("assistant: <tool-activity>")
                .contains("- weather ok in={\"city\":\"Paris\"} out=18 C and sunny");
        assertThat(contents.get(3)).isEqualTo("assistant: You're welcome.");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aTurnWithNothingInItIsRefusedNamingItsFields(Api api) {
        String user = unique("empty-turn");
        Api.Response created = api.post("/turns", addTurn("bot", user, "s", turn("t1", "hello", "hi")));
        long id = created.json().get("conversationId").asLong();

        for (Map<String, Object> empty : List.of(
                obj(),
                obj("userMessage", "", "assistantResponse", "  \n"),
                obj("turnId", "t9", "toolInvocations", List.of()))) {
            Api.Response byKey = api.post("/turns", addTurn("bot", user, "s", empty));
            assertEmptyTurnProblem(byKey, "turn.userMessage");
            assertEmptyTurnProblem(api.post("/conversations/" + id + "/turns", empty), "turn.userMessage");
        }
        Api.Response batch =
                api.post("/conversations/" + id + "/turns/batch", obj("turns", List.of(turn("t2", "q", "a"), obj())));
        assertEmptyTurnProblem(batch, "turns[1].userMessage");

        assertThat(api.get("/conversations/" + id + "/turns").json().get("turns"))
                .as("nothing but the first turn is stored")
                .hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anEpisodePostedAgainAnswers200WithTheStoredId(Api api) {
        Map<String, Object> ns = Episodes.ns(unique("dedupe-agent"), "u1");
        Map<String, Object> episode = Episodes.episode(ns, "deploy on Friday", "rolled back", "failure");

        Api.Response first = api.post("/episodes", episode);
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(first.header("Location")).isNotNull();
        Api.Response again = api.post("/episodes", episode);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().get("episodeId").asText())
                .isEqualTo(first.json().get("episodeId").asText());

        Map<String, Object> lesson =
                obj("namespace", ns, "situation", "Friday deploys", "lesson", "deploy on Tuesday", "importance", 7);
        Api.Response lessonFirst = api.post("/episodes/lessons", lesson);
        assertThat(lessonFirst.status()).as(lessonFirst.body()).isEqualTo(201);
        Api.Response lessonAgain = api.post("/episodes/lessons", lesson);
        assertThat(lessonAgain.status()).as(lessonAgain.body()).isEqualTo(200);
        assertThat(lessonAgain.json().get("episodeId").asText())
                .isEqualTo(lessonFirst.json().get("episodeId").asText());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void offloadedOutputsInputsAndErrorsAreRecoveredByteForByte(Api api) throws Exception {
        Map<String, String> outputs = new java.util.LinkedHashMap<>();
        outputs.put("crlf", "line one\r\n\tindented with trailing spaces   \r\n".repeat(1500));
        outputs.put(
                "json",
                "{ \"zeta\" : 1,\n  \"alpha\": [ 1, 2 ],  \"caf\\u00e9\": \"\\u00e9t\u00e9\" , \"rows\": ["
                        + "{\"b\": 2, \"a\": 1}, ".repeat(2500) + "{} ] }\n");
        outputs.put("invalid-json", "{\"unterminated\": [1, 2, " + "\"x\", ".repeat(4000));
        StringBuilder binary = new StringBuilder();
        for (int i = 0; i < 12_000; i++) {
            binary.append((char) (1 + (i * 7919) % 255));
        }
        outputs.put("binary-looking", binary.toString());
        outputs.put("astral", "\uD83D\uDE80 rocket \uD834\uDD1E clef \uD83C\uDF0D ".repeat(1200));

        List<Object> invocations = new ArrayList<>();
        outputs.forEach((name, output) -> invocations.add(obj("toolName", name, "input", obj(), "output", output)));
        String inputJson = "{\"sql\":\"" + "SELECT a, b FROM t WHERE c = 1;\\r\\n".repeat(2500) + "\"}";
        Map<String, Object> bigInput = Api.JSON.readValue(inputJson, Map.class);
        String error = "ERROR 42P01: relation does not exist\r\n\tat line 1   \r\n".repeat(1500);
        invocations.add(obj("toolName", "sql", "input", bigInput, "status", "error", "error", error));

        String user = unique("byte-exact");
        Api.Response posted = api.post(
                "/turns",
                addTurn(
                        "bot",
                        user,
                        "s",
                        obj(
                                "turnId",
                                "t1",
                                "userMessage",
                                "run the tools",
                                "assistantResponse",
                                "done",
                                "toolInvocations",
                                invocations)));
        assertThat(posted.status()).as(posted.body()).isEqualTo(201);
        long id = posted.json().get("conversationId").asLong();
        JsonNode stored = api.get("/conversations/" + id + "/turns").json().at("/turns/0/toolInvocations");

        int i = 0;
        for (Map.Entry<String, String> output : outputs.entrySet()) {
            String contentId = stored.get(i++).at("/omitted/output").asText();
            assertThat(contentId).as(output.getKey() + " offloaded").startsWith("om_");
            assertThat(sha256(recover(api, id, contentId)))
                    .as(output.getKey() + " recovered byte for byte")
                    .isEqualTo(sha256(output.getValue()));
        }
        JsonNode sql = stored.get(i);
        assertThat(sql.at("/omitted/input").asText()).startsWith("om_");
        assertThat(sql.at("/input/sql").asText()).hasSizeLessThan(300);
        assertThat(Api.JSON.readTree(recover(api, id, sql.at("/omitted/input").asText())))
                .isEqualTo(Api.JSON.readTree(inputJson));
        assertThat(sql.get("error").asText()).hasSizeLessThan(300);
        assertThat(sha256(recover(api, id, sql.at("/omitted/error").asText()))).isEqualTo(sha256(error));

        JsonNode context = Contexts.byId(api, id, obj("model", "gpt-4o"));
        String rendered = context.at("/messages/1/content").asText();
        assertThat(rendered)
                .contains("<tool-input-omitted id=\"" + sql.at("/omitted/input").asText() + "\"/>")
                .contains("<tool-error-omitted id=\"" + sql.at("/omitted/error").asText() + "\"/>");
    }

    private static String recover(Api api, long id, String contentId) {
        Api.Response r = api.get("/conversations/" + id + "/omissions/" + contentId);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private static String sha256(String text) throws java.security.NoSuchAlgorithmException {
        return java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    private static void assertEmptyTurnProblem(Api.Response r, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.json().get("field").asText()).isEqualTo(field);
        assertThat(r.json().get("rule").asText()).isEqualTo("empty-turn");
        assertThat(r.json().get("detail").asText())
                .contains("assistantResponse")
                .contains("toolInvocations");
    }
}
