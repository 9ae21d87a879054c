package org.agentmemory.it;

import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.turn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.RemoteClient;
import org.agentmemory.it.support.Turns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Many clients appending to one conversation that does not exist yet: nothing is lost, nothing is
 * duplicated, one conversation is created, sequences are dense, and no client sees a 5xx.
 *
 * <p>On Open Liberty (the suite's liberty-rest execution) the remote-EJB test is skipped (Liberty binds remote views for
 * IIOP only), and so is the last check of the creation-race test: Liberty's logging has no message filter like the one
 * config/wildfly/configure-server.cli adds, so Hibernate's ERROR line for the handled unique-key race stays in
 * messages.log; the race itself is handled there as on WildFly (every write 200/201, every turn stored once).
 */
class ConcurrencyIT {

    private static final int CLIENTS = 8;
    private static final int TURNS_EACH = 25;

    static Stream<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void eightRestClientsAppendTwentyFiveTurnsEachToANewConversation(Api api) {
        String user = unique("conc-rest");
        List<List<Integer>> statuses = Concurrently.run(CLIENTS, client -> {
            List<Integer> mine = new ArrayList<>();
            for (int i = 0; i < TURNS_EACH; i++) {
                mine.add(api.post(
                                "/turns",
                                addTurn(
                                        "bot",
                                        user,
                                        "shared",
                                        turn("c" + client + "-" + i, "client " + client + " turn " + i, "ok")))
                        .status());
            }
            return mine;
        });
        assertThat(statuses).allSatisfy(list -> assertThat(list).containsOnly(201));
        JsonNode sessions = api.get("/conversations" + query("userId", user)).json();
        assertThat(sessions.get("items")).hasSize(1);
        JsonNode history = api.get("/conversations/"
                        + sessions.at("/items/0/conversationId").asLong())
                .json();
        assertThat(new HashSet<>(Turns.turnIds(history))).hasSize(CLIENTS * TURNS_EACH);
        assertThat(Turns.sequences(history))
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, CLIENTS * TURNS_EACH).boxed().toList());
        // Each client's own turns keep their relative order.
        for (int client = 0; client < CLIENTS; client++) {
            String prefix = "c" + client + "-";
            List<String> own = Turns.turnIds(history).stream()
                    .filter(id -> id.startsWith(prefix))
                    .toList();
            assertThat(own)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, TURNS_EACH)
                            .mapToObj(i -> prefix + i)
                            .toList());
        }
    }

    /**
     * The same episode posted by several clients at once (a client retrying, say) is stored once and every call is
     * answered with it: the content key's unique constraint refuses all but the first insert, and the losers answer
     * the winner's episode instead of a 500 (found by an adversarial run on Open Liberty).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void identicalEpisodesPostedAtOnceAreStoredOnceWithoutA5xx(Api api) {
        String agent = unique("conc-episode");
        for (int round = 0; round < 3; round++) {
            Object body = Api.obj(
                    "namespace",
                    Api.obj("agentId", agent, "userId", "u"),
                    "situation",
                    "The same situation, round " + round,
                    "actionTaken",
                    "The same action",
                    "outcome",
                    "failure",
                    "lessonLearned",
                    "The same lesson",
                    "generateReflection",
                    false);
            List<Api.Response> answers = Concurrently.run(CLIENTS, client -> api.post("/episodes", body));
            assertThat(answers)
                    .allSatisfy(r -> assertThat(r.status()).as(r.body()).isIn(200, 201));
            assertThat(answers.stream()
                            .map(r -> r.json().findValue("episodeId").asText())
                            .distinct())
                    .as("one episode for every caller")
                    .hasSize(1);
        }
    }

    @Test
    void eightRemoteEjbClientsAppendTwentyFiveTurnsEachToANewConversation() throws Exception {
        RemoteClient.assumeRemoting();
        String user = unique("conc-ejb");
        ConversationKey key = ConversationKey.of("bot", user, "shared");
        List<Integer> appended = Concurrently.run(CLIENTS, client -> {
            ConversationMemoryRemote remote = RemoteClient.conversationMemory();
            int ok = 0;
            for (int i = 0; i < TURNS_EACH; i++) {
                try {
                    if (remote.addTurn(key, TurnRecord.of("e" + client + "-" + i, "client " + client, "ok"))
                            .created()) {
                        ok++;
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            return ok;
        });
        assertThat(appended).containsOnly(TURNS_EACH);
        ConversationHistory history = RemoteClient.conversationMemory().getHistory(key);
        assertThat(history.turns()).hasSize(CLIENTS * TURNS_EACH);
        assertThat(history.turns().stream().map(TurnRecord::turnId).distinct().count())
                .isEqualTo(CLIENTS * TURNS_EACH);
        assertThat(history.turns().stream().map(TurnRecord::sequence).toList())
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, CLIENTS * TURNS_EACH).boxed().toList());
        assertThat(RemoteClient.conversationMemory()
                        .listSessions("default", user, null, 10, null)
                        .items())
                .hasSize(1);
    }

    /**
     * Four JSONL imports of the same 300 lines into 60 conversations that do not exist yet, at once (PostgreSQL
     * server; the H2 server admits one import at a time for the 503 test). The imports race to create the
     * conversations: exactly 60 conversations, each line stored once, in line order, and the other copies
     * counted as duplicates.
     */
    @Test
    void fourConcurrentImportsOfTheSameLinesStoreEachTurnOnceInOrder() throws Exception {
        Api api = Api.postgres();
        String user = unique("conc-import");
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            body.append(Api.JSON.writeValueAsString(Api.obj(
                            "key",
                            Api.obj("chatbotId", "bot", "userId", user, "sessionId", "s" + (i % 60)),
                            "turn",
                            Api.obj(
                                    "turnId",
                                    "line-" + i,
                                    "userMessage",
                                    "question " + i,
                                    "assistantResponse",
                                    "answer " + i))))
                    .append('\n');
        }
        JsonNode sessions = importConcurrently(
                api, user, List.of(body.toString(), body.toString(), body.toString(), body.toString()), 900);
        for (JsonNode item : sessions.get("items")) {
            JsonNode history = api.get(
                            "/conversations/" + item.get("conversationId").asLong())
                    .json();
            String sessionId = item.at("/key/sessionId").asText();
            int session = Integer.parseInt(sessionId.substring(1));
            assertThat(Turns.turnIds(history))
                    .as(sessionId)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 5)
                            .mapToObj(k -> "line-" + (session + 60 * k))
                            .toList());
            assertThat(Turns.sequences(history)).containsExactly(1L, 2L, 3L, 4L, 5L);
        }
    }

    /**
     * Two JSONL imports of the same 300 lines into 60 new conversations at once, one meeting the conversations in
     * the opposite order (each conversation's lines keep their order): creating a batch's conversations in one
     * transaction must survive the deadlock this invites. Each line is stored once, in order, in 60 conversations.
     */
    @Test
    void twoConcurrentImportsMeetingNewConversationsInOppositeOrdersStoreEachTurnOnce() throws Exception {
        Api api = Api.postgres();
        String user = unique("opposite-import");
        StringBuilder forward = new StringBuilder();
        StringBuilder backward = new StringBuilder();
        for (int session = 0; session < 60; session++) {
            for (int k = 0; k < 5; k++) {
                forward.append(line(user, session, k));
                backward.append(line(user, 59 - session, k));
            }
        }
        JsonNode sessions = importConcurrently(api, user, List.of(forward.toString(), backward.toString()), 300);
        for (JsonNode item : sessions.get("items")) {
            JsonNode history = api.get(
                            "/conversations/" + item.get("conversationId").asLong())
                    .json();
            int session = Integer.parseInt(item.at("/key/sessionId").asText().substring(1));
            assertThat(Turns.turnIds(history))
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 5)
                            .mapToObj(k -> "line-" + session + "-" + k)
                            .toList());
        }
    }

    /**
     * Writers append to four conversations over {@code POST /turns} and {@code POST /turns/batch} while another
     * client keeps deleting or clearing them: a conversation deleted between its creation and the writer's lock is
     * created again, so no call answers 5xx.
     */
    @Test
    void writesRacingDeletesOfTheirConversationNeverAnswer5xx() {
        Api api = Api.postgres();
        String user = unique("delete-race");
        java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
        List<List<Integer>> statuses = Concurrently.run(7, client -> {
            List<Integer> seen = new ArrayList<>();
            if (client == 6) {
                for (int k = 0; writing.get(); k++) {
                    Api.Response found =
                            api.get("/conversations/lookup" + query("userId", user, "sessionId", "s" + k % 4));
                    if (found.status() == 200) {
                        long id = found.json().get("conversationId").asLong();
                        seen.add(api.delete("/conversations/" + id + (k % 2 == 0 ? "" : "/turns"))
                                .status());
                    }
                }
                return seen;
            }
            for (int k = 0; k < 60; k++) {
                String session = "s" + k % 4;
                seen.add(
                        client % 2 == 0
                                ? api.post(
                                                "/turns",
                                                Api.obj(
                                                        "userId",
                                                        user,
                                                        "sessionId",
                                                        session,
                                                        "turn",
                                                        turn("w" + client + "-" + k, "question", "answer")))
                                        .status()
                                : api.post(
                                                "/turns/batch",
                                                Api.obj(
                                                        "userId",
                                                        user,
                                                        "sessionId",
                                                        session,
                                                        "turns",
                                                        List.of(
                                                                turn("b" + client + "-" + k + "-0", "q", "a"),
                                                                turn("b" + client + "-" + k + "-1", "q", "a"))))
                                        .status());
            }
            if (client == 0) {
                writing.set(false);
            }
            return seen;
        });
        assertThat(statuses.stream().flatMap(List::stream))
                .allSatisfy(status -> assertThat(status).isLessThan(500));
        assertThat(statuses.subList(0, 6).stream().flatMap(List::stream))
                .allSatisfy(status -> assertThat(status).isIn(200, 201));
    }

    /**
     * A batch write remembers the ids of the conversations it wrote (a hint checked under the row lock): after a
     * conversation is deleted, the next import into the same key finds the remembered id gone, looks the key up
     * again and writes into the new conversation; nothing is lost and no other conversation is touched.
     */
    @ParameterizedTest
    @MethodSource("servers")
    void anImportIntoADeletedConversationsKeyWritesIntoItsNewConversation(Api api) throws Exception {
        String user = unique("stale-id");
        String first = line(user, 0, 0) + line(user, 1, 1);
        Api.Response r = api.postRaw("/import", first, "application/x-ndjson");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        long old = api.get("/conversations/lookup" + query("chatbotId", "bot", "userId", user, "sessionId", "s0"))
                .json()
                .get("conversationId")
                .asLong();
        long kept = api.get("/conversations/lookup" + query("chatbotId", "bot", "userId", user, "sessionId", "s1"))
                .json()
                .get("conversationId")
                .asLong();
        assertThat(api.delete("/conversations/" + old).status()).isEqualTo(204);

        Api.Response again = api.postRaw("/import", line(user, 0, 2) + line(user, 1, 3), "application/x-ndjson");
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().get("turnsImported").asLong()).isEqualTo(2);
        assertThat(again.json().get("conversationsCreated").asLong()).isEqualTo(1);
        long renewed = api.get("/conversations/lookup" + query("chatbotId", "bot", "userId", user, "sessionId", "s0"))
                .json()
                .get("conversationId")
                .asLong();
        assertThat(renewed).isNotEqualTo(old);
        assertThat(Turns.turnIds(api.get("/conversations/" + renewed).json())).containsExactly("line-0-2");
        assertThat(Turns.turnIds(api.get("/conversations/" + kept).json())).containsExactly("line-1-1", "line-1-3");
        assertThat(api.get("/conversations/" + old).status()).isEqualTo(404);
    }

    /**
     * Two calls creating the same conversation at once is a race the service handles; the server log must not call
     * it an error (config/wildfly/configure-server.cli drops Hibernate's ERROR lines for that constraint). Rounds of
     * 8 concurrent writes (single turns and one-line imports) to a fresh key, the conversation deleted after each,
     * until PostgreSQL has reported a unique-key violation at least once (Hibernate's WARN line, which stays).
     */
    @Test
    void creationRacesAreHandledWithoutErrorLinesInTheServerLog() throws Exception {
        Api api = Api.postgres();
        java.nio.file.Path log = java.nio.file.Path.of(System.getProperty("it.pg.log"));
        String user = unique("race-log");
        long violationsBefore = countLines(log, "SQLState: 23505");
        long errorsBefore = countLines(log, "ERROR", "uk_conversation_key");
        int rounds = 0;
        while (countLines(log, "SQLState: 23505") == violationsBefore && rounds < 40) {
            int round = rounds++;
            List<Integer> statuses = Concurrently.run(
                    CLIENTS,
                    client -> client % 2 == 0
                            ? api.post("/turns", addTurn(null, user, "s", turn("r" + round + "-" + client, "q", "a")))
                                    .status()
                            : api.postRaw(
                                            "/import",
                                            Api.JSON
                                                            .valueToTree(Api.obj(
                                                                    "key",
                                                                    Api.obj("userId", user, "sessionId", "s"),
                                                                    "turn",
                                                                    turn("r" + round + "-" + client, "q", "a")))
                                                            .toString()
                                                    + "\n",
                                            "application/x-ndjson")
                                    .status());
            assertThat(statuses).allSatisfy(s -> assertThat(s).isIn(200, 201));
            long id = api.get("/conversations/lookup" + query("userId", user, "sessionId", "s"))
                    .json()
                    .get("conversationId")
                    .asLong();
            assertThat(api.get("/conversations/" + id).json().get("turns")).hasSize(CLIENTS);
            assertThat(api.delete("/conversations/" + id).status()).isEqualTo(204);
        }
        assertThat(countLines(log, "SQLState: 23505"))
                .as("a creation race happened in %d rounds", rounds)
                .isGreaterThan(violationsBefore);
        org.junit.jupiter.api.Assumptions.assumeFalse(
                Boolean.getBoolean("it.liberty"),
                "Open Liberty's log has no message filter for Hibernate's ERROR line of the handled race"
                        + " (WildFly's: configure-server.cli); the race was handled above");
        assertThat(countLines(log, "ERROR", "uk_conversation_key")).isEqualTo(errorsBefore);
    }

    /** @return how many lines of the file contain every one of the parts */
    private static long countLines(java.nio.file.Path file, String... parts) throws java.io.IOException {
        try (java.util.stream.Stream<String> lines =
                java.nio.file.Files.lines(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> java.util.Arrays.stream(parts).allMatch(l::contains))
                    .count();
        }
    }

    /**
     * Posts the bodies as concurrent imports of 300 lines into 60 new conversations of {@code user}, checks the
     * reports add up (no line errors, 300 stored, the given duplicates, 60 conversations created) and returns the
     * user's sessions (exactly 60).
     */
    private static JsonNode importConcurrently(Api api, String user, List<String> bodies, long duplicates) {
        List<JsonNode> reports = Concurrently.run(bodies.size(), client -> {
            Api.Response r = api.postRaw("/import", bodies.get(client), "application/x-ndjson");
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            return r.json();
        });
        assertThat(reports).allSatisfy(r -> assertThat(r.get("errors")).isEmpty());
        assertThat(reports.stream()
                        .mapToLong(r -> r.get("turnsImported").asLong())
                        .sum())
                .isEqualTo(300);
        assertThat(reports.stream().mapToLong(r -> r.get("duplicates").asLong()).sum())
                .isEqualTo(duplicates);
        assertThat(reports.stream()
                        .mapToLong(r -> r.get("conversationsCreated").asLong())
                        .sum())
                .isEqualTo(60);
        JsonNode sessions = api.get("/conversations" + query("userId", user, "limit", "100"))
                .json();
        assertThat(sessions.get("items")).hasSize(60);
        return sessions;
    }

    private static String line(String user, int session, int k) throws Exception {
        return Api.JSON.writeValueAsString(Api.obj(
                        "key",
                        Api.obj("chatbotId", "bot", "userId", user, "sessionId", "s" + session),
                        "turn",
                        Api.obj(
                                "turnId",
                                "line-" + session + "-" + k,
                                "userMessage",
                                "question " + session + "/" + k,
                                "assistantResponse",
                                "answer " + session + "/" + k)))
                + "\n";
    }
}
