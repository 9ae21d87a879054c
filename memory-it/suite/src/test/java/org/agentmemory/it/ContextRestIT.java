package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Contexts.assertWellFormed;
import static org.agentmemory.it.support.Contexts.words;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Contexts;
import org.agentmemory.omission.control.ContentIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/**
 * The read path over REST on a real WildFly, on PostgreSQL and on H2 (issue 4 "the same through REST"):
 * histories with tool invocations compacted into model budgets, tiny and empty budgets, blank responses, the
 * persisted boundary, notice markup, omission recovery right after a context call, foreign agents, assembly,
 * and problem details for bad requests.
 */
class ContextRestIT {

    static Stream<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2()).stream();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Histories

    private static Map<String, Object> invocation(String tool, Map<String, Object> input, String output) {
        return obj("toolName", tool, "input", input, "output", output, "status", "completed", "elapsedMs", 1200);
    }

    /**
     * A turn with two tool invocations of about 150 words each; every fifth turn also has a 2,500-word output,
     * which the write path offloads (so that turn can never be RAW unless it is the newest).
     */
    private static Map<String, Object> toolTurn(int i) {
        List<Map<String, Object>> invocations = new ArrayList<>();
        invocations.add(invocation("bash", obj("command", "kubectl logs pod-" + i), words(100 + i, 150)));
        invocations.add(invocation(
                "query_database",
                obj("query", "select * from orders where id = " + i),
                "[" + words(200 + i, 150) + "]"));
        if (i % 5 == 0) {
            invocations.add(invocation("read_file", obj("path", "/var/log/big-" + i + ".log"), words(300 + i, 2500)));
        }
        return obj(
                "turnId",
                "t" + i,
                "userMessage",
                "Question " + i + ": " + words(i, 15),
                "assistantResponse",
                "Answer " + i + ": " + words(1000 + i, 40),
                "toolInvocations",
                invocations);
    }

    private static List<Map<String, Object>> toolHistory(int turns) {
        List<Map<String, Object>> history = new ArrayList<>();
        for (int i = 1; i <= turns; i++) {
            history.add(toolTurn(i));
        }
        return history;
    }

    private static int invocationCount(int i) {
        return i % 5 == 0 ? 3 : 2;
    }

    private static Map<String, Object> request(Object... keysAndValues) {
        return obj(keysAndValues);
    }

    // ---------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void toolHistoryRendersWithinTheModelBudgetAlternatingWithoutBlankMessages(Api api) {
        long id = Contexts.addTurns(api, "ops-bot", unique("tools"), "s", toolHistory(40));
        JsonNode context = Contexts.byId(
                api,
                id,
                request(
                        "model",
                        "gpt-4o",
                        "maxHistoryTokens",
                        3000,
                        "systemPromptTokens",
                        500,
                        "userPrompt",
                        "What should we roll back first?"));

        assertWellFormed(context);
        assertThat(context.get("conversationId").asLong()).isEqualTo(id);
        assertThat(context.get("window").asInt()).isEqualTo(128000);
        assertThat(context.get("available").asInt()).isEqualTo(128000 - 8192 - 4096);
        assertThat(context.get("historyBudget").asInt()).isEqualTo(3000);
        assertThat(context.get("outcome").asText()).isIn("fitted", "trimmed");
        assertThat(context.get("tokenizer").asText()).isEqualTo("o200k_base");

        // Tiers: stored order, newest RAW block last, PRUNED before it; the newest turn is always shown.
        List<String> shown = Contexts.tierIds(context);
        List<String> states = new ArrayList<>();
        context.get("tiers").forEach(t -> states.add(t.get("state").asText()));
        assertThat(shown.get(shown.size() - 1)).isEqualTo("t40");
        assertThat(states).contains("raw", "pruned");
        assertThat(String.join(",", states)).matches("(pruned,)*(raw,)*raw");
        List<Integer> numbers =
                shown.stream().map(s -> Integer.parseInt(s.substring(1))).toList();
        assertThat(numbers).isSorted();
        assertThat(numbers)
                .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(numbers.get(0), 40)
                        .boxed()
                        .toList());
        // Dropped turns are all older than every shown turn: never a newer turn before an older one.
        List<String> dropped = new ArrayList<>();
        context.get("droppedTurnIds").forEach(d -> dropped.add(d.asText()));
        assertThat(dropped).isNotEmpty();
        assertThat(dropped).allMatch(d -> Integer.parseInt(d.substring(1)) < numbers.get(0));
        assertThat(dropped.size() + shown.size()).isEqualTo(40);
        assertThat(context.get("boundaryTurnId").asText()).isEqualTo(shown.get(states.lastIndexOf("pruned")));

        // Every invocation of a shown turn appears once, with its result (RAW) or an omission notice (PRUNED).
        JsonNode messages = context.get("messages");
        assertThat(messages.size()).isEqualTo(2 * shown.size());
        for (int k = 0; k < shown.size(); k++) {
            int turn = numbers.get(k);
            String assistant = messages.get(2 * k + 1).get("content").asText();
            assertThat(messages.get(2 * k + 1).get("turnId").asText()).isEqualTo("t" + turn);
            String block = assistant.substring(assistant.indexOf("<tool-activity>"));
            List<String> lines = block.lines().filter(l -> l.startsWith("- ")).toList();
            assertThat(lines).as("tool lines of t%d", turn).hasSize(invocationCount(turn));
            for (String line : lines) {
                boolean offloaded = line.startsWith("- read_file");
                if (states.get(k).equals("raw") && !offloaded) {
                    assertThat(line).contains(" out=").doesNotContain("<tool-output-omitted");
                } else {
                    assertThat(line).contains("<tool-output-omitted").doesNotContain(" out=");
                }
            }
        }
        JsonNode commit = context.get("commit");
        assertThat(commit.get("promptEstimate").asLong())
                .isEqualTo(
                        context.get("tokensUsed").asLong() + 500 + Contexts.tokens("What should we roll back first?"));
        assertThat(commit.get("boundaryTurnId").asText())
                .isEqualTo(context.get("boundaryTurnId").asText());
        assertThat(commit.get("droppedTurns").asInt()).isEqualTo(dropped.size());
        assertThat(commit.get("historyEstimate").asLong())
                .isEqualTo(context.get("historyEstimate").asLong());
        assertThat(commit.get("available").asInt())
                .isEqualTo(context.get("available").asInt());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void newestTurnOf60000CharactersIsReducedIntoA4000TokenBudgetAndFlagged(Api api) {
        // Ends in a letter, so normalization (which strips trailing blanks) keeps all 60,000 characters.
        String huge = words(7, 12_000).substring(0, 59_999) + "x";
        List<Map<String, Object>> history = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            history.add(
                    obj("turnId", "old" + i, "userMessage", "older question " + i, "assistantResponse", words(i, 50)));
        }
        history.add(
                obj("turnId", "huge", "userMessage", "Summarize the whole incident log.", "assistantResponse", huge));
        long id = Contexts.addTurns(api, null, unique("huge"), "s", history);
        assertThat(api.get("/conversations/" + id)
                        .json()
                        .at("/turns/3/assistantResponse")
                        .asText())
                .hasSize(60_000);

        JsonNode context = Contexts.byId(api, id, request("model", "gpt-4o", "maxHistoryTokens", 4000));
        assertWellFormed(context);
        assertThat(context.get("outcome").asText()).isEqualTo("reduced");
        assertThat(context.get("reduced").asBoolean()).isTrue();
        assertThat(context.get("stage2Needed").asBoolean()).isTrue();
        assertThat(context.get("tokensUsed").asInt()).isBetween(1, 4000);
        assertThat(context.get("messages")).hasSize(2);
        assertThat(context.at("/messages/0/content").asText()).isEqualTo("Summarize the whole incident log.");
        String assistant = context.at("/messages/1/content").asText();
        assertThat(assistant).contains("\u2026[truncated ").contains(" chars]\u2026");
        assertThat(assistant).startsWith(huge.substring(0, 100)).endsWith(huge.substring(huge.length() - 100));
        assertThat(Contexts.tierIds(context)).containsExactly("huge");
        assertThat(context.at("/tiers/0/state").asText()).isEqualTo("pruned");
        assertThat(context.get("droppedTurnIds").toString()).isEqualTo("[\"old1\",\"old2\",\"old3\"]");
        assertThat(context.get("note").asText()).startsWith("Only the newest turn fits");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void budgetsOfOneAndTwoTokensAndWindowsBelowTheReservesAnswerZeroMessagesAndSaySo(Api api) {
        List<Map<String, Object>> history = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            history.add(obj("turnId", "t" + i, "userMessage", words(i, 30), "assistantResponse", words(50 + i, 30)));
        }
        long id = Contexts.addTurns(api, null, unique("tiny"), "s", history);
        List<Map<String, Object>> requests = List.of(
                request("model", "gpt-4o", "maxHistoryTokens", 1),
                request("model", "gpt-4o", "maxHistoryTokens", 2),
                request("model", "gpt-4o", "maxHistoryTokens", 0),
                request("window", 0),
                request("window", 4000),
                request("window", 1, "reserveOutput", 0, "reserveFixed", 0),
                request("window", 20000, "systemPromptTokens", 7000, "userPromptTokens", 7000));
        for (Map<String, Object> r : requests) {
            JsonNode context = Contexts.byId(api, id, r);
            assertWellFormed(context);
            assertThat(context.get("outcome").asText()).as("%s", r).isEqualTo("budget_too_small");
            assertThat(context.get("budgetTooSmall").asBoolean()).isTrue();
            assertThat(context.get("messages")).isEmpty();
            assertThat(context.get("tokensUsed").asInt()).isZero();
            assertThat(context.get("stage2Needed").asBoolean()).isTrue();
            assertThat(context.get("note").asText())
                    .startsWith("No message fits the history budget of "
                            + context.get("historyBudget").asInt() + " tokens");
            assertThat(context.get("droppedTurnIds").toString()).isEqualTo("[\"t1\",\"t2\",\"t3\"]");
        }
        assertThat(Contexts.byId(api, id, request("window", 4000))
                        .get("available")
                        .asInt())
                .isZero();
        assertThat(Contexts.byId(api, id, request("window", 1, "reserveOutput", 0, "reserveFixed", 0))
                        .get("available")
                        .asInt())
                .isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void emptyHistoriesAndKeysWithoutAConversationGiveNothingToRender(Api api) {
        String user = unique("empty");
        Api.Response created = api.post("/conversations", obj("userId", user, "sessionId", "s"));
        assertThat(created.status()).isEqualTo(201);
        long id = created.json().get("conversationId").asLong();
        JsonNode empty = Contexts.byId(api, id, request("model", "claude-sonnet-4"));
        assertWellFormed(empty);
        assertThat(empty.get("outcome").asText()).isEqualTo("nothing_to_render");
        assertThat(empty.get("messages")).isEmpty();
        assertThat(empty.get("window").asInt()).isEqualTo(200000);
        assertThat(empty.get("note").asText())
                .isEqualTo("The conversation has no turn with an assistant response to show.");
        assertThat(empty.at("/commit/boundaryTurnId").isNull()).isTrue();

        Api.Response noConversation = api.post(
                "/context",
                obj(
                        "userId",
                        user,
                        "sessionId",
                        "never-used",
                        "context",
                        request("model", "gpt-4o", "userPromptTokens", 12)));
        assertThat(noConversation.status()).as(noConversation.body()).isEqualTo(200);
        assertThat(noConversation.json().get("conversationId").isNull()).isTrue();
        assertThat(noConversation.json().get("outcome").asText()).isEqualTo("nothing_to_render");
        assertThat(noConversation.json().get("note").asText())
                .isEqualTo("No conversation exists for this key yet; the history is empty.");
        assertThat(noConversation.json().at("/commit/promptEstimate").asLong()).isEqualTo(12);

        // A cleared history is empty again.
        long other = Contexts.addTurns(
                api, null, user, "cleared", List.of(obj("turnId", "a", "userMessage", "q", "assistantResponse", "r")));
        assertThat(Contexts.byId(api, other, request()).get("messages")).hasSize(2);
        assertThat(api.delete("/conversations/" + other + "/turns").status()).isEqualTo(200);
        assertThat(Contexts.byId(api, other, request()).get("outcome").asText()).isEqualTo("nothing_to_render");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void emptyWhitespaceAndNullAssistantResponsesNeverRender(Api api) {
        List<Map<String, Object>> history = new ArrayList<>();
        history.add(obj("turnId", "ok1", "userMessage", "first question", "assistantResponse", "first answer"));
        history.add(obj("turnId", "empty", "userMessage", "second question", "assistantResponse", ""));
        history.add(obj("turnId", "spaces", "userMessage", "third question", "assistantResponse", "  \n\t \u00a0 "));
        history.add(obj("turnId", "null", "userMessage", "fourth question"));
        history.add(obj("turnId", "ok2", "userMessage", "fifth question", "assistantResponse", "fifth answer"));
        long id = Contexts.addTurns(api, null, unique("blank"), "s", history);
        for (Map<String, Object> r :
                List.of(request("model", "gpt-4o"), request("model", "gpt-4o", "maxHistoryTokens", 12))) {
            JsonNode context = Contexts.byId(api, id, r);
            assertWellFormed(context);
            List<String> messageTurns = new ArrayList<>();
            context.get("messages")
                    .forEach(m -> messageTurns.add(m.get("turnId").asText()));
            assertThat(messageTurns).doesNotContain("empty", "spaces", "null");
            assertThat(Contexts.tierIds(context)).doesNotContain("empty", "spaces", "null");
            assertThat(context.get("droppedTurnIds").toString()).doesNotContain("empty", "spaces", "null");
        }
        JsonNode all = Contexts.byId(api, id, request("model", "gpt-4o"));
        assertThat(all.get("messages")).hasSize(4);
        assertThat(all.at("/messages/1/content").asText()).isEqualTo("first answer");
        assertThat(all.at("/messages/2/content").asText()).isEqualTo("fifth question");
        assertThat(all.at("/messages/3/content").asText()).isEqualTo("fifth answer");
    }

    /** Waits until the conversation's Stage 2 summary exists and has stopped changing (at most 30 s). */
    private static void awaitSummary(Api api, long conversationId) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        String last = null;
        while (System.nanoTime() < deadline) {
            Api.Response r = api.get("/conversations/" + conversationId + "/summary");
            if (r.status() == 200 && r.body().equals(last)) {
                return;
            }
            last = r.status() == 200 ? r.body() : null;
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new AssertionError("no settled Stage 2 summary of conversation " + conversationId + " within 30 s");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void compactingTwiceWithThePersistedBoundaryChangesNothing(Api api) {
        String user = unique("boundary");
        long id = Contexts.addTurns(api, "ops-bot", user, "s", toolHistory(14));
        Map<String, Object> r = request("model", "gpt-4o", "maxHistoryTokens", 2500);
        JsonNode first = Contexts.byId(api, id, r);
        JsonNode again = Contexts.byId(api, id, r);
        assertThat(again).isEqualTo(first);
        String boundary = first.get("boundaryTurnId").asText();
        assertThat(boundary).isNotEmpty();

        // The round's turn goes back with the commit: the boundary is persisted.
        Map<String, Object> commit = Api.JSON.convertValue(first.get("commit"), Map.class);
        Api.Response saved = api.post(
                "/turns",
                obj(
                        "userId",
                        user,
                        "sessionId",
                        "s",
                        "chatbotId",
                        "ops-bot",
                        "turn",
                        toolTurn(15),
                        "compaction",
                        commit));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        JsonNode stored = api.get("/conversations/" + id + "/metadata").json().at("/metadata/compaction");
        assertThat(stored.get("boundary_turn_id").asText()).isEqualTo(boundary);

        // The commit dropped turns of a conversation whose Stage 2 flag is set: its summary is written in the
        // background, and a context changes once when it lands. Compare contexts taken after it has.
        awaitSummary(api, id);
        JsonNode second = Contexts.byId(api, id, r);
        JsonNode third = Contexts.byId(api, id, r);
        assertWellFormed(second);
        assertThat(third).isEqualTo(second);
        int boundaryNumber = Integer.parseInt(boundary.substring(1));
        Map<String, String> firstStates = states(first);
        Map<String, String> secondStates = states(second);
        secondStates.forEach((turn, state) -> {
            if (Integer.parseInt(turn.substring(1)) <= boundaryNumber) {
                assertThat(state)
                        .as("%s is at or before the boundary %s", turn, boundary)
                        .isEqualTo("pruned");
            }
            if ("pruned".equals(firstStates.get(turn))) {
                assertThat(state).as("%s was pruned and stays pruned", turn).isEqualTo("pruned");
            }
        });
        assertThat(Integer.parseInt(second.get("boundaryTurnId").asText().substring(1)))
                .isGreaterThanOrEqualTo(boundaryNumber);
        assertThat(Contexts.tierIds(second)).endsWith("t15");
    }

    private static Map<String, String> states(JsonNode context) {
        Map<String, String> states = new HashMap<>();
        context.get("tiers")
                .forEach(
                        t -> states.put(t.get("turnId").asText(), t.get("state").asText()));
        return states;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void quotesInToolNamesAndWorkingMemoryKeysKeepTheNoticeMarkupWellFormed(Api api) throws Exception {
        String tool = "say \"hi\" & <go> 'now'";
        String wmKey = "wm:\"k\"&<1>'";
        String bigOutput = words(11, 2500);
        String smallOutput = words(12, 120);
        List<Map<String, Object>> history = new ArrayList<>();
        history.add(obj(
                "turnId",
                "q1",
                "userMessage",
                "run it",
                "assistantResponse",
                "done",
                "toolInvocations",
                List.of(obj("toolName", tool, "input", obj("x", 1), "output", smallOutput, "wmKey", wmKey))));
        history.add(obj(
                "turnId",
                "q2",
                "userMessage",
                "run the big one",
                "assistantResponse",
                "done too",
                "toolInvocations",
                List.of(obj("toolName", tool, "input", obj("x", 2), "output", bigOutput, "wmKey", wmKey))));
        history.add(obj("turnId", "q3", "userMessage", "thanks", "assistantResponse", "you are welcome"));
        history.add(obj("turnId", "q4", "userMessage", "bye", "assistantResponse", "bye"));
        long id = Contexts.addTurns(api, null, unique("quotes"), "s", history);

        JsonNode context = Contexts.byId(api, id, request("model", "gpt-4o"));
        assertWellFormed(context);
        List<String> notices = Contexts.notices(Contexts.assistantText(context));
        assertThat(notices).hasSize(2);
        List<String> ids = new ArrayList<>();
        for (String notice : notices) {
            Element element = DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(new InputSource(new StringReader(notice)))
                    .getDocumentElement();
            assertThat(element.getTagName()).isEqualTo("tool-output-omitted");
            assertThat(element.getAttribute("tool")).isEqualTo(tool);
            assertThat(element.getAttribute("wm")).isEqualTo(wmKey);
            assertThat(element.getAttribute("id")).matches("om_[0-9a-f]{16}");
            ids.add(element.getAttribute("id"));
        }
        assertThat(ids).containsExactly(ContentIds.contentId(smallOutput), ContentIds.contentId(bigOutput));
        assertThat(Contexts.omitted(api, id, "contentId", ids.get(0))).isEqualTo(smallOutput);
        assertThat(Contexts.omitted(api, id, "contentId", ids.get(1))).isEqualTo(bigOutput);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void omissionsTheRenderedOutputReferencesAreRecoverableRightAfterTheContextCall(Api api) {
        String shortOutput = words(21, 300);
        String offloadedOutput = words(22, 2500);
        List<Map<String, Object>> history = new ArrayList<>();
        history.add(obj("turnId", "r1", "userMessage", "hello", "assistantResponse", "hello, how can I help?"));
        history.add(obj(
                "turnId",
                "r2",
                "userMessage",
                "grep the logs",
                "assistantResponse",
                "found these lines",
                "toolInvocations",
                List.of(invocation("bash", obj("command", "grep ERROR app.log"), shortOutput))));
        history.add(obj(
                "turnId",
                "r3",
                "userMessage",
                "read the dump",
                "assistantResponse",
                "the dump is large",
                "toolInvocations",
                List.of(invocation("read_file", obj("path", "/tmp/dump.txt"), offloadedOutput))));
        for (int i = 4; i <= 6; i++) {
            history.add(obj("turnId", "r" + i, "userMessage", "follow-up " + i, "assistantResponse", "answer " + i));
        }
        long id = Contexts.addTurns(api, null, unique("recover"), "s", history);
        String renderTimeId = ContentIds.contentId(shortOutput);
        String writeTimeId = ContentIds.contentId(offloadedOutput);
        assertThat(probe(api, id, renderTimeId))
                .as("not stored before the context call")
                .isEqualTo(404);
        assertThat(probe(api, id, writeTimeId)).as("offloaded at write time").isEqualTo(200);

        JsonNode context = Contexts.byId(api, id, request("model", "gpt-4o"));
        assertWellFormed(context);
        assertThat(states(context))
                .containsEntry("r2", "pruned")
                .containsEntry("r3", "pruned")
                .containsEntry("r6", "raw");
        String text = Contexts.assistantText(context);
        assertThat(text).contains("id=\"" + renderTimeId + "\"").contains("id=\"" + writeTimeId + "\"");
        assertThat(text).contains("read_omitted_content(turn_id=\"r2\")");

        assertThat(probe(api, id, renderTimeId)).isEqualTo(200);
        assertThat(Contexts.omitted(api, id, "contentId", renderTimeId)).isEqualTo(shortOutput);
        assertThat(Contexts.omitted(api, id, "turnId", "r2"))
                .isEqualTo("<omitted id=\"" + renderTimeId + "\">\n" + shortOutput + "\n</omitted>");
        assertThat(Contexts.omitted(api, id, "turnId", "r3"))
                .isEqualTo("<omitted id=\"" + writeTimeId + "\">\n" + offloadedOutput + "\n</omitted>");
        assertThat(Contexts.omitted(api, id, "contentId", writeTimeId, "turnId", "r2"))
                .isEqualTo(offloadedOutput);
        assertThat(Contexts.omitted(api, id, "contentId", "om_0123456789abcdef"))
                .isEqualTo(
                        "Omitted content om_0123456789abcdef is unknown or may have expired \u2014 re-run the tool to regenerate it.");
        assertThat(Contexts.omitted(api, id, "turnId", "r5"))
                .isEqualTo("No omitted content is known for turn r5 \u2014 it may have expired; re-run the tool.");
        assertThat(Contexts.omitted(api, id)).isEqualTo("Provide content_id (om_\u2026) or turn_id.");
        assertThat(Contexts.omitted(api, Long.MAX_VALUE - 7, "contentId", renderTimeId))
                .isEqualTo("read_omitted_content is unavailable in this context (no active conversation scope).");
        // Scoped to the conversation: another conversation of the same user does not see it.
        long other = Contexts.addTurns(
                api,
                null,
                unique("recover-other"),
                "s",
                List.of(obj("turnId", "x", "userMessage", "q", "assistantResponse", "a")));
        assertThat(Contexts.omitted(api, other, "contentId", renderTimeId))
                .startsWith("Omitted content " + renderTimeId + " is unknown");
    }

    private static int probe(Api api, long id, String contentId) {
        return api.send(HttpRequest.newBuilder(api.uri("/conversations/" + id + "/omissions/" + contentId))
                        .method("HEAD", HttpRequest.BodyPublishers.noBody()))
                .status();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void otherAgentsTurnsAreLabelledOrLeftOut(Api api) {
        String user = unique("agents");
        List<Map<String, Object>> history = List.of(
                obj("turnId", "a1", "userMessage", "plan the trip", "assistantResponse", "here is a plan"),
                obj(
                        "turnId",
                        "b1",
                        "userMessage",
                        "book the hotel",
                        "assistantResponse",
                        "hotel booked",
                        "chatbotId",
                        "booking-bot"),
                obj("turnId", "a2", "userMessage", "and the train?", "assistantResponse", "train at 9"));
        long id = Contexts.addTurns(api, "planner", user, "s", history);
        JsonNode labelled = Contexts.byId(api, id, request("model", "gpt-4o"));
        assertWellFormed(labelled);
        assertThat(labelled.at("/messages/3/content").asText()).isEqualTo("[agent:booking-bot] hotel booked");
        JsonNode without = Contexts.byId(api, id, request("model", "gpt-4o", "includeOtherAgents", false));
        assertWellFormed(without);
        assertThat(Contexts.tierIds(without)).containsExactly("a1", "a2");
        assertThat(without.get("droppedTurnIds")).isEmpty();
        JsonNode asBooking = Contexts.byId(api, id, request("model", "gpt-4o", "currentChatbotId", "booking-bot"));
        assertThat(asBooking.at("/messages/1/content").asText()).isEqualTo("[agent:planner] here is a plan");
        assertThat(asBooking.at("/messages/3/content").asText()).isEqualTo("hotel booked");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void assemblyFlattensTheCompactedConversationAndLeavesUnpluggedSectionsEmpty(Api api) {
        String user = unique("assemble");
        long id = Contexts.addTurns(
                api,
                null,
                user,
                "s",
                List.of(
                        obj(
                                "turnId",
                                "c1",
                                "userMessage",
                                "Where is my parcel?",
                                "assistantResponse",
                                "It left the depot at 9."),
                        obj(
                                "turnId",
                                "c2",
                                "userMessage",
                                "When will it arrive?",
                                "assistantResponse",
                                "Tomorrow before noon.")));
        String expected = "User: Where is my parcel?\nAssistant: It left the depot at 9.\n"
                + "User: When will it arrive?\nAssistant: Tomorrow before noon.";
        Api.Response byKey = api.post(
                "/context/assemble",
                obj(
                        "userId",
                        user,
                        "sessionId",
                        "s",
                        "query",
                        "parcel",
                        "config",
                        obj("enableBrain", true),
                        "context",
                        request("model", "gpt-4o")));
        assertThat(byKey.status()).as(byKey.body()).isEqualTo(200);
        JsonNode assembled = byKey.json();
        assertThat(assembled.get("conversationId").asLong()).isEqualTo(id);
        assertThat(assembled.get("conversationSummary").asText()).isEqualTo(expected);
        assertThat(assembled.get("episodicWarnings").asText()).isEmpty();
        assertThat(assembled.get("relevantSkills").asText()).isEmpty();
        assertThat(assembled.get("semanticKnowledge").asText()).isEmpty();
        // Counted with the service's tokenizer (o200k_base), not length / 4.
        assertThat(assembled.get("tokensUsed").asInt()).isBetween(10, 40);
        assertThat(assembled.get("tokensBudget").asInt()).isEqualTo(2000);
        assertThat(assembled.get("prompt").asText())
                .isEqualTo("<recent_conversation>\n" + expected + "\n</recent_conversation>");
        assertThat(assembled.get("conversationOutcome").asText()).isEqualTo("fitted");

        // By id, with a budget of 10 estimated tokens (9 after headroom): the oldest lines go first.
        Api.Response small = api.post(
                "/conversations/" + id + "/context/assemble",
                obj("query", "parcel", "config", obj("maxContextTokens", 10)));
        assertThat(small.status()).as(small.body()).isEqualTo(200);
        assertThat(small.json().get("conversationSummary").asText()).isEqualTo("Assistant: Tomorrow before noon.");
        assertThat(small.json().get("tokensBudget").asInt()).isEqualTo(10);

        Api.Response badWeights = api.post(
                "/conversations/" + id + "/context/assemble",
                obj(
                        "query",
                        "parcel",
                        "config",
                        obj("episodicWeight", 0.5, "skillWeight", 0.5, "conversationWeight", 0.5)));
        assertThat(badWeights.status()).isEqualTo(400);
        assertThat(badWeights.contentType()).startsWith("application/problem+json");
        assertThat(badWeights.json().get("field").asText()).isEqualTo("config");
        assertThat(badWeights.json().get("rule").asText()).isEqualTo("weights-sum");
        Api.Response noQuery = api.post("/context/assemble", obj("userId", user, "sessionId", "s"));
        assertThat(noQuery.status()).isEqualTo(400);
        assertThat(noQuery.json().get("field").asText()).isEqualTo("query");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void badRequestsAreProblemDetailsNamingTheField(Api api) {
        long id = Contexts.addTurns(
                api,
                null,
                unique("bad"),
                "s",
                List.of(obj("turnId", "t", "userMessage", "q", "assistantResponse", "a")));
        assertProblem(api.post("/conversations/" + id + "/context", request("window", -1)), 400, "window", "min");
        assertProblem(
                api.post("/conversations/" + id + "/context", request("maxHistoryTokens", -5)),
                400,
                "maxHistoryTokens",
                "min");
        assertProblem(api.post("/conversations/" + id + "/context", request("maxTurns", 0)), 400, "maxTurns", "min");
        assertProblem(
                api.post("/conversations/" + id + "/context", request("systemPromptTokens", 10, "systemPrompt", "hi")),
                400,
                "systemPrompt",
                "one-of");
        assertProblem(api.post("/conversations/" + id + "/context", request("window", "large")), 400, "window", "type");
        assertProblem(
                api.post("/conversations/" + id + "/context", request("budget", 100)), 400, null, "unknown-property");
        assertProblem(api.post("/conversations/" + (Long.MAX_VALUE - 3) + "/context", request()), 404, null, null);
        assertProblem(api.post("/context", obj("sessionId", "s")), 400, "userId", "not-null");
        assertProblem(
                api.post("/context", obj("userId", "bad\u0007", "sessionId", "s")), 400, "userId", "control-character");
        Api.Response noBody = api.postRaw("/conversations/" + id + "/context", "", "application/json");
        assertThat(noBody.status()).as(noBody.body()).isEqualTo(200);
        assertThat(noBody.json().get("window").asInt()).isEqualTo(32000);
    }

    private static void assertProblem(Api.Response r, int status, String field, String rule) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        if (field != null) {
            assertThat(r.json().get("field").asText()).isEqualTo(field);
        }
        if (rule != null) {
            assertThat(r.json().get("rule").asText()).isEqualTo(rule);
        }
    }

    @Test
    void openApiDocumentsTheReadPath() {
        Api api = Api.postgres();
        Api.Response doc = api.send(HttpRequest.newBuilder(java.net.URI.create(api.base() + "/openapi?format=JSON"))
                .GET());
        assertThat(doc.status()).isEqualTo(200);
        List<String> paths = new ArrayList<>();
        doc.json().get("paths").fieldNames().forEachRemaining(paths::add);
        assertThat(paths)
                .contains(
                        "/api/v1/context",
                        "/api/v1/context/assemble",
                        "/api/v1/conversations/{id}/context",
                        "/api/v1/conversations/{id}/context/assemble",
                        "/api/v1/conversations/{id}/omitted");
        assertThat(doc.json().at("/paths/~1api~1v1~1context/post/responses/200").isMissingNode())
                .isFalse();
        assertThat(doc.json()
                        .at("/paths/~1api~1v1~1conversations~1{id}~1omitted/get/responses/200")
                        .isMissingNode())
                .isFalse();
    }
}
