package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Episodes;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two tenants with identical user, session and agent ids, each with a secret word in a turn, in an offloaded tool
 * output with identical bytes in both, in an episode and in an answer: every read and search path answers each
 * tenant with its own data only, and another tenant's conversation, omission or episode id answers 404 as an id that
 * does not exist (issue 32 item 3, as far as the tenant comes from the token).
 */
class TenantIsolationIT {

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    /** What one tenant stored. */
    record Stored(Api api, String secret, long conversationId, String contentId, String episodeId) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void noReadPathAnswersWithAnotherTenantsData(Api server) {
        String run = unique("iso");
        String user = "user-" + run;
        String agent = "agent-" + run;
        String sharedOutput = ("identical tool output of both tenants " + run + "\n").repeat(1500);
        Stored a =
                store(server, "tenant-a-" + run, "zebra" + run.replaceAll("[^a-z0-9]", ""), user, agent, sharedOutput);
        Stored b =
                store(server, "tenant-b-" + run, "okapi" + run.replaceAll("[^a-z0-9]", ""), user, agent, sharedOutput);
        assertThat(a.contentId()).as("identical bytes, identical content id").isEqualTo(b.contentId());

        List<String> leaks = new ArrayList<>();
        int checked = 0;
        for (Stored[] pair : List.of(new Stored[] {a, b}, new Stored[] {b, a})) {
            Stored me = pair[0];
            Stored other = pair[1];
            Map<String, Supplier<Api.Response>> reads = reads(me.api(), user, agent, me, other);
            for (Map.Entry<String, Supplier<Api.Response>> read : reads.entrySet()) {
                Api.Response r = read.getValue().get();
                checked++;
                if (r.body() != null && r.body().contains(other.secret())) {
                    leaks.add(read.getKey() + " showed the other tenant's secret: " + r.status());
                }
                if (read.getKey().startsWith("no oracle") && r.status() == 599) {
                    leaks.add(read.getKey() + ": " + r.body());
                }
                if (read.getKey().startsWith("other's id") && r.status() != 404) {
                    leaks.add(read.getKey() + ": " + r.status() + " instead of 404 " + r.body());
                }
                if (read.getKey().startsWith("own")
                        && (r.status() / 100 != 2 || !r.body().contains(me.secret()))) {
                    leaks.add(
                            read.getKey() + ": does not show the caller's own secret: " + r.status() + " " + r.body());
                }
            }
        }
        System.out.printf(
                Locale.ROOT, "[isolation %s] %d read paths checked, %d leaks%n", server.name(), checked, leaks.size());
        assertThat(leaks).isEmpty();
    }

    private static Stored store(Api server, String tenant, String secret, String user, String agent, String output) {
        Api api = server.as(Tokens.of(server, tenant, List.of("memory-admin")).sign());
        Api.Response turn = api.post(
                "/turns",
                addTurn(
                        agent,
                        user,
                        "s1",
                        obj(
                                "turnId",
                                "t1",
                                "userMessage",
                                "Remember the word " + secret,
                                "assistantResponse",
                                "I will remember " + secret,
                                "toolInvocations",
                                List.of(obj("toolName", "log", "output", output)))));
        assertThat(turn.status()).as(turn.body()).isEqualTo(201);
        long id = turn.json().get("conversationId").asLong();
        String contentId = api.get("/conversations/" + id + "/turns")
                .json()
                .at("/turns/0/toolInvocations/0/omitted/output")
                .asText();
        Map<String, Object> ns = Episodes.ns(agent, user);
        Map<String, Object> episode = Episodes.episode(ns, "Deploy of " + secret, "rolled back " + secret, "failure");
        episode.put("lessonLearned", "never deploy " + secret + " on Friday");
        String episodeId = Episodes.record(api, episode).get("episodeId").asText();
        assertThat(api.put(
                                "/answers",
                                obj("agentId", agent, "turnId", "t1", "question", "q", "answer", obj("v", secret)))
                        .status())
                .isEqualTo(200);
        return new Stored(api, secret, id, contentId, episodeId);
    }

    private static Map<String, Supplier<Api.Response>> reads(
            Api api, String user, String agent, Stored me, Stored other) {
        Map<String, Supplier<Api.Response>> reads = new LinkedHashMap<>();
        String key = query("userId", user, "sessionId", "s1", "chatbotId", agent);
        reads.put("other's id: history", () -> api.get("/conversations/" + other.conversationId()));
        reads.put("other's id: turns", () -> api.get("/conversations/" + other.conversationId() + "/turns"));
        reads.put("other's id: turn", () -> api.get("/conversations/" + other.conversationId() + "/turns/1"));
        reads.put("other's id: metadata", () -> api.get("/conversations/" + other.conversationId() + "/metadata"));
        reads.put("other's id: export", () -> api.get("/conversations/" + other.conversationId() + "/export"));
        reads.put(
                "other's id: omission",
                () -> api.get("/conversations/" + other.conversationId() + "/omissions/" + other.contentId()));
        reads.put(
                "other's id: omission list",
                () -> api.get("/conversations/" + other.conversationId() + "/omissions" + query("turnId", "t1")));
        reads.put(
                "other's id: context",
                () -> api.post("/conversations/" + other.conversationId() + "/context", obj("model", "gpt-4o")));
        reads.put(
                "other's id: assembly",
                () -> api.post("/conversations/" + other.conversationId() + "/context/assemble", obj("query", "word")));
        // read_omitted_content answers 200 with a text meant for the model (spec §7.4): for another tenant's
        // conversation exactly what it answers for one that never existed.
        String omitted = "/omitted" + query("contentId", other.contentId());
        reads.put("no oracle: read_omitted_content", () -> {
            Api.Response theirs = api.get("/conversations/" + other.conversationId() + omitted);
            Api.Response none = api.get("/conversations/999999999999" + omitted);
            return theirs.status() == none.status() && theirs.body().equals(none.body())
                    ? theirs
                    : new Api.Response(599, theirs.headers(), "differs from an unknown id: " + theirs.body());
        });
        reads.put("other's id: episode", () -> api.get("/episodes/" + other.episodeId()));
        reads.put("own history by key", () -> api.get("/conversations/lookup" + key));
        reads.put("own history by id", () -> api.get("/conversations/" + me.conversationId()));
        reads.put("conversations of the user", () -> api.get("/conversations" + query("userId", user)));
        reads.put("agent's conversations", () -> api.get("/chatbots/conversations" + query("chatbotId", agent)));
        reads.put("agent's users", () -> api.get("/chatbots/users" + query("chatbotId", agent)));
        reads.put("agent's statistics", () -> api.get("/chatbots/stats" + query("chatbotId", agent)));
        reads.put("own export", () -> api.get("/export" + query("userId", user)));
        reads.put(
                "own context by key",
                () -> api.post(
                        "/context",
                        obj("userId", user, "sessionId", "s1", "chatbotId", agent, "context", obj("model", "gpt-4o"))));
        reads.put(
                "omission by the own id",
                () -> api.get("/conversations/" + me.conversationId() + "/omissions/" + me.contentId()));
        for (String mode : List.of("full_text", "vector", "hybrid")) {
            reads.put(
                    "message search " + mode,
                    () -> api.post(
                            "/messages/search",
                            obj("userId", user, "query", "remember the word " + other.secret(), "mode", mode)));
            reads.put(
                    "episode recall " + mode,
                    () -> api.post(
                            "/episodes/recall",
                            obj(
                                    "namespace",
                                    obj("agentId", agent, "userId", user),
                                    "query",
                                    "deploy " + other.secret(),
                                    "mode",
                                    mode)));
        }
        String ns = query("agentId", agent, "userId", user);
        reads.put("warnings", () -> api.get("/episodes/warnings" + ns + "&query=deploy"));
        reads.put("episodic context", () -> api.get("/episodes/context" + ns + "&query=deploy"));
        reads.put("preferences", () -> api.get("/episodes/preferences" + ns));
        reads.put("room context", () -> api.get("/episodes/room-context" + ns));
        reads.put("own episode list", () -> api.get("/episodes" + ns));
        reads.put("episode export", () -> api.get("/episodes/export" + ns));
        reads.put(
                "agent tool search",
                () -> api.post(
                        "/tools/episodic/search_episodic_memory",
                        obj("namespace", obj("agentId", agent), "query", "deploy")));
        reads.put(
                "agent tool warnings",
                () -> api.post(
                        "/tools/episodic/get_warnings", obj("namespace", obj("agentId", agent), "query", "deploy")));
        reads.put("own answer", () -> api.get("/answers" + query("agentId", agent, "turnId", "t1")));
        return reads;
    }
}
