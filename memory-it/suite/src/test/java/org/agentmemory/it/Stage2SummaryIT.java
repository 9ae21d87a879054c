package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Contexts;
import org.agentmemory.it.support.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stage 2 summaries (issue 35 item 4) on both servers: the H2 server's summary model is a fake OpenAI-compatible
 * server started here ({@code memory.stage2.model-url} points at {@code it.stage2.llm.port}), the PostgreSQL server
 * has none and summarises extractively. After a round's commit dropped turns, the summary is written in the
 * background and covers exactly the dropped turns; a second drop extends it with only the newly dropped turns (the
 * model sees only them and the previous summary); the context carries it in place of the covered turns and never
 * exceeds its budget; clearing, deleting and erasing take the summary with them.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it needs the H2 server's fake model settings.
 */
class Stage2SummaryIT {

    /** The history budget of every round: small, so that turns drop. */
    private static final int BUDGET = 700;

    private static HttpServer server;
    private static final AtomicReference<String> ANSWER = new AtomicReference<>();
    private static final List<String> PROMPTS = new CopyOnWriteArrayList<>();

    static Stream<Api> servers() {
        return Stream.of(Api.h2(), Api.postgres());
    }

    @BeforeAll
    static void startFakeModel() throws IOException {
        int port = Integer.parseInt(System.getProperty("it.stage2.llm.port"));
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/v1/chat/completions", exchange -> {
            String prompt;
            try (InputStream in = exchange.getRequestBody()) {
                JsonNode request = Api.JSON.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                prompt = request.at("/messages/1/content").asText();
            }
            PROMPTS.add(prompt);
            String content = ANSWER.get() != null
                    ? ANSWER.get()
                    : Api.JSON.writeValueAsString(
                            Map.of("summary", "- fake summary " + PROMPTS.size() + " of " + markers(prompt)));
            byte[] body = Api.JSON
                    .writeValueAsString(Map.of(
                            "id",
                            "cmpl-s2",
                            "object",
                            "chat.completion",
                            "choices",
                            List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", content)))))
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterAll
    static void stopFakeModel() {
        server.stop(0);
    }

    /** The turn markers ({@code mk<n>x}) a prompt's new turns carry, space-separated. */
    private static String markers(String prompt) {
        StringBuilder found = new StringBuilder();
        var m = java.util.regex.Pattern.compile("mk\\d+x").matcher(prompt);
        while (m.find()) {
            if (found.indexOf(m.group()) < 0) {
                found.append(found.isEmpty() ? "" : " ").append(m.group());
            }
        }
        return found.toString();
    }

    /** Turn {@code n}: a question and answer of fixed filler words, with the marker {@code mk<n>x} in its question. */
    private static Map<String, Object> turn(String prefix, int n) {
        return obj(
                "turnId",
                prefix + n,
                "userMessage",
                "Question mk" + n + "x: where does shipment " + n + " stand? " + Contexts.words(n, 20) + ".",
                "assistantResponse",
                "Shipment " + n + " left Porto on day " + n + ". " + Contexts.words(1000 + n, 30) + ".");
    }

    private static JsonNode context(Api api, long id) {
        JsonNode context = Contexts.byId(api, id, obj("model", "gpt-4o", "maxHistoryTokens", BUDGET, "maxTurns", 100));
        Contexts.assertWellFormed(context);
        return context;
    }

    /** Sends a round's turn with the commit of a context call; asserts 201. */
    private static void round(Api api, String chatbot, String user, Map<String, Object> turn, JsonNode context) {
        Api.Response saved = api.post(
                "/turns",
                obj(
                        "userId",
                        user,
                        "sessionId",
                        "s",
                        "chatbotId",
                        chatbot,
                        "turn",
                        turn,
                        "compaction",
                        Api.JSON.convertValue(context.get("commit"), Map.class)));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
    }

    /** Polls GET /conversations/{id}/summary until it satisfies {@code done}, for at most 60 seconds. */
    private static JsonNode awaitSummary(Api api, long id, Predicate<JsonNode> done) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Api.Response last;
        do {
            last = api.get("/conversations/" + id + "/summary");
            if (last.status() == 200 && done.test(last.json())) {
                return last.json();
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no summary of conversation " + id + " as expected within 60 s; last answer "
                + last.status() + " " + last.body());
    }

    private static List<String> ids(JsonNode array) {
        List<String> ids = new ArrayList<>();
        array.forEach(n -> ids.add(n.asText()));
        return ids;
    }

    private static String expectedMethod(Api api) {
        return api.name().contains("h2") ? "model" : "extractive";
    }

    /**
     * A conversation of 10 turns whose first round drops turns, with its first summary stored.
     *
     * @return the conversation id, the first round's dropped ids and the summary
     */
    private record Summarised(String user, long id, List<String> dropped, JsonNode summary) {}

    private static Summarised summarised(Api api, String prefix) throws InterruptedException {
        return summarised(api, null, prefix);
    }

    private static Summarised summarised(Api api, String chatbot, String prefix) throws InterruptedException {
        // The H2 server's circuit breaker may be open from other tests' calls while no fake listened: try again
        // until the model writes the summary (each try is a new conversation).
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            String user = unique(prefix);
            List<Map<String, Object>> turns = new ArrayList<>();
            for (int n = 1; n <= 10; n++) {
                turns.add(turn("a", n));
            }
            long id = Contexts.addTurns(api, chatbot, user, "s", turns);
            JsonNode first = context(api, id);
            assertThat(first.get("stage2Needed").asBoolean()).isTrue();
            assertThat(first.get("summary").isNull())
                    .as("no summary before the first commit")
                    .isTrue();
            List<String> dropped = ids(first.get("droppedTurnIds"));
            assertThat(dropped).isNotEmpty();
            round(api, chatbot, user, turn("a", 11), first);
            String last = dropped.get(dropped.size() - 1);
            JsonNode summary =
                    awaitSummary(api, id, s -> s.get("lastTurnId").asText().equals(last));
            if (summary.get("method").asText().equals(expectedMethod(api)) || System.nanoTime() > deadline) {
                return new Summarised(user, id, dropped, summary);
            }
            Thread.sleep(2_000);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void theSummaryCoversExactlyTheDroppedTurnsAndGrowsWithOnlyTheNewlyDroppedOnes(Api api) throws Exception {
        ANSWER.set(null);
        Summarised s = summarised(api, "stage2");
        JsonNode first = s.summary();
        assertThat(first.get("method").asText()).isEqualTo(expectedMethod(api));
        assertThat(first.get("conversationId").asLong()).isEqualTo(s.id());
        assertThat(first.get("firstTurnId").asText()).isEqualTo(s.dropped().get(0));
        assertThat(first.get("firstSequence").asLong()).isEqualTo(1);
        assertThat(first.get("turnCount").asInt()).isEqualTo(s.dropped().size());
        assertThat(first.get("addedTurns").asInt()).isEqualTo(s.dropped().size());
        assertThat(first.get("refreshes").asInt()).isEqualTo(1);
        assertThat(first.get("tokenCount").asInt())
                .isEqualTo(Contexts.tokens(first.get("text").asText()));
        int promptsBefore = PROMPTS.size();
        if (api.name().contains("h2")) {
            String prompt = PROMPTS.get(PROMPTS.size() - 1);
            assertThat(prompt).startsWith("Current summary:\n(none yet)");
            for (int n = 1; n <= 11; n++) {
                boolean dropped = s.dropped().contains("a" + n);
                assertThat(prompt.contains("mk" + n + "x"))
                        .as("turn a%d in the first prompt", n)
                        .isEqualTo(dropped);
            }
        } else {
            List<String> lines = List.of(first.get("text").asText().split("\n"));
            assertThat(lines).hasSize(s.dropped().size());
            for (int i = 0; i < lines.size(); i++) {
                assertThat(lines.get(i)).startsWith("- User: Question mk" + (i + 1) + "x: ");
            }
        }

        // More turns: the next round drops more, and its context shows the summary in place of the covered turns.
        Contexts.addTurns(api, null, s.user(), "s", List.of(turn("a", 12), turn("a", 13), turn("a", 14)));
        JsonNode second = context(api, s.id());
        List<String> dropped2 = ids(second.get("droppedTurnIds"));
        assertThat(dropped2.subList(0, s.dropped().size())).isEqualTo(s.dropped());
        assertThat(dropped2.size()).isGreaterThan(s.dropped().size());
        assertThat(second.at("/summary/lastTurnId").asText())
                .isEqualTo(first.get("lastTurnId").asText());
        String opening = second.at("/messages/0/content").asText();
        assertThat(opening)
                .startsWith("<earlier-turns-summary turns=\"" + s.dropped().size() + "\" first=\""
                        + s.dropped().get(0) + "\" last=\""
                        + first.get("lastTurnId").asText() + "\">\n");
        for (String covered : s.dropped()) {
            int n = Integer.parseInt(covered.substring(1));
            assertThat(Contexts.assistantText(second)).doesNotContain("Shipment " + n + " left Porto");
        }
        assertThat(second.get("note").asText()).contains("earliest turn(s), through turn");

        round(api, null, s.user(), turn("a", 15), second);
        String last2 = dropped2.get(dropped2.size() - 1);
        JsonNode extended =
                awaitSummary(api, s.id(), j -> j.get("lastTurnId").asText().equals(last2));
        assertThat(extended.get("firstTurnId").asText()).isEqualTo(s.dropped().get(0));
        assertThat(extended.get("turnCount").asInt()).isEqualTo(dropped2.size());
        assertThat(extended.get("addedTurns").asInt())
                .isEqualTo(dropped2.size() - s.dropped().size());
        assertThat(extended.get("refreshes").asInt()).isEqualTo(2);
        if (api.name().contains("h2")) {
            assertThat(PROMPTS.size()).isEqualTo(promptsBefore + 1);
            String prompt = PROMPTS.get(PROMPTS.size() - 1);
            assertThat(prompt)
                    .startsWith("Current summary:\n" + first.get("text").asText() + "\n\nNew turns");
            String newTurns = prompt.substring(prompt.indexOf("New turns"));
            for (int n = 1; n <= 15; n++) {
                boolean isNew = dropped2.contains("a" + n) && !s.dropped().contains("a" + n);
                assertThat(newTurns.contains("mk" + n + "x"))
                        .as("turn a%d among the second prompt's new turns", n)
                        .isEqualTo(isNew);
            }
        } else {
            assertThat(extended.get("text").asText())
                    .startsWith(first.get("text").asText() + "\n");
            assertThat(extended.get("text").asText().split("\n")).hasSize(dropped2.size());
        }

        // The next context carries the extended summary; no budget is ever exceeded.
        for (int budget : new int[] {120, 250, 400, BUDGET, 1_500}) {
            JsonNode context =
                    Contexts.byId(api, s.id(), obj("model", "gpt-4o", "maxHistoryTokens", budget, "maxTurns", 100));
            Contexts.assertWellFormed(context);
            JsonNode shown = context.get("summary");
            if (!shown.isNull()) {
                assertThat(shown.get("lastTurnId").asText()).isEqualTo(last2);
                assertThat(context.at("/messages/0/content").asText()).startsWith("<earlier-turns-summary ");
            }
        }
    }

    @Test
    void anUnreadableModelAnswerFallsBackToTheExtractiveSummary() throws Exception {
        Api api = Api.h2();
        ANSWER.set("I would rather not answer in JSON.");
        try {
            String user = unique("stage2-garbage");
            List<Map<String, Object>> turns = new ArrayList<>();
            for (int n = 1; n <= 10; n++) {
                turns.add(turn("g", n));
            }
            long id = Contexts.addTurns(api, null, user, "s", turns);
            JsonNode context = context(api, id);
            round(api, null, user, turn("g", 11), context);
            List<String> dropped = ids(context.get("droppedTurnIds"));
            JsonNode summary =
                    awaitSummary(api, id, s -> s.get("lastTurnId").asText().equals(dropped.get(dropped.size() - 1)));
            assertThat(summary.get("method").asText()).isEqualTo("extractive");
            assertThat(summary.get("text").asText()).startsWith("- User: Question mk1x: ");
            assertThat(summary.get("turnCount").asInt()).isEqualTo(dropped.size());
        } finally {
            ANSWER.set(null);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void summariesGoWithClearingDeletionAndErasure(Api api) throws Exception {
        ANSWER.set(null);
        Summarised cleared = summarised(api, "stage2-clear");
        assertThat(api.delete("/conversations/" + cleared.id() + "/turns").status())
                .isEqualTo(200);
        Api.Response afterClear = api.get("/conversations/" + cleared.id() + "/summary");
        assertThat(afterClear.status()).isEqualTo(404);
        assertThat(afterClear.json().get("detail").asText()).contains("has no summary of earlier turns yet");

        Summarised deleted = summarised(api, "stage2-delete");
        assertThat(api.delete("/conversations/" + deleted.id()).status()).isIn(200, 204);
        assertThat(api.get("/conversations/" + deleted.id() + "/summary").status())
                .isEqualTo(404);

        String bot = unique("stage2-bot");
        Summarised bulk = summarised(api, bot, "stage2-bulk");
        Api.Response bulkDelete =
                api.delete("/chatbots/conversations" + query("chatbotId", bot, "userId", bulk.user()));
        assertThat(bulkDelete.status()).as(bulkDelete.body()).isEqualTo(200);
        assertThat(bulkDelete.json().get("deleted").asLong()).isEqualTo(1);
        assertThat(api.get("/conversations/" + bulk.id() + "/summary").status()).isEqualTo(404);

        Summarised erased = summarised(api, "stage2-erase");
        Api.Response receipt = api.post("/erasures", obj("userId", erased.user()));
        assertThat(receipt.status()).as(receipt.body()).isEqualTo(200);
        assertThat(receipt.json().get("summaries").asLong()).isEqualTo(1);
        assertThat(receipt.json().get("conversations").asLong()).isEqualTo(1);
        assertThat(api.get("/conversations/" + erased.id() + "/summary").status())
                .isEqualTo(404);
        assertThat(api.post("/erasures", obj("userId", erased.user()))
                        .json()
                        .get("summaries")
                        .asLong())
                .isZero();

        if (api.name().contains("postgres")) {
            try (Connection db = Databases.suite()) {
                for (Summarised gone : List.of(cleared, deleted, bulk, erased)) {
                    assertThat(ErasureIT.count(
                                    db, "SELECT count(*) FROM history_summary WHERE conversation_id = ?", gone.id()))
                            .as("summary rows of %s", gone.user())
                            .isZero();
                }
                assertThat(ErasureIT.count(db, "SELECT count(*) FROM history_summary WHERE user_id = ?", erased.user()))
                        .isZero();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aConversationWithoutSummaryOrUnknownAnswers404(Api api) {
        long id = Contexts.addTurns(api, null, unique("stage2-none"), "s", List.of(turn("n", 1)));
        Api.Response none = api.get("/conversations/" + id + "/summary");
        assertThat(none.status()).isEqualTo(404);
        assertThat(none.contentType()).startsWith("application/problem+json");
        assertThat(api.get("/conversations/987654321987/summary").status()).isEqualTo(404);
    }
}
