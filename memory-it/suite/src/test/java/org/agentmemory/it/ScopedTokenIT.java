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
 * Tokens narrowed to one user or one agent (issue 32 item 1; claims {@code memory_user} and {@code memory_agent},
 * the defaults of {@code memory.security.user-claim} and {@code memory.security.agent-claim}). Two users of one
 * agent in one tenant, each with a secret word in a turn, an offloaded tool output and an episode. A token scoped to
 * the first user:
 * <ul>
 *   <li>reads its own data without naming its user, and every agent-only read (recall in three modes, warnings,
 *       context, episode lists and exports, agent tools, message search) shows none of the other user's data;</li>
 *   <li>gets 404 for every operation on the other user's conversation id or episode id, as for ids that do not
 *       exist, and read_omitted_content answers as for an unknown conversation;</li>
 *   <li>gets 403 naming the field for a request that names the other user, and for operations that cannot be
 *       narrowed to a user (answers, an agent's users and statistics, reindex);</li>
 *   <li>cannot write, import into or delete the other user's conversations: they are unchanged afterwards.</li>
 * </ul>
 * A token scoped to one agent cannot read another agent's conversation of the same user.
 */
class ScopedTokenIT {

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    /** What one user stored. */
    record Stored(String user, String secret, long conversationId, String contentId, String episodeId) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aUserScopedTokenSeesAndChangesOnlyItsUsersData(Api server) {
        String run = unique("scope");
        String tenant = "tenant-" + run;
        String agent = "agent-" + run;
        Api service =
                server.as(Tokens.of(server, tenant, List.of("memory-admin")).sign());
        Stored alice = store(service, agent, "alice", "zebra" + run.replaceAll("[^a-z0-9]", ""));
        Stored bob = store(service, agent, "bob", "okapi" + run.replaceAll("[^a-z0-9]", ""));
        Api asAlice = server.as(Tokens.of(server, tenant, List.of("memory-admin"))
                .withClaim("memory_user", "alice")
                .sign());

        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<String, Supplier<Api.Response>> read :
                reads(asAlice, agent, alice, bob).entrySet()) {
            Api.Response r = read.getValue().get();
            checked++;
            String name = read.getKey();
            if (r.body() != null && r.body().contains(bob.secret())) {
                wrong.add(name + " showed the other user's secret: " + r.status());
            }
            if (name.startsWith("other's id") && r.status() != 404) {
                wrong.add(name + ": " + r.status() + " instead of 404 " + r.body());
            }
            if (name.startsWith("no oracle") && r.status() == 599) {
                wrong.add(name + ": " + r.body());
            }
            if (name.startsWith("own") && (r.status() / 100 != 2 || !r.body().contains(alice.secret()))) {
                wrong.add(name + ": does not show the caller's own secret: " + r.status() + " " + r.body());
            }
            if (name.startsWith("lists own")
                    && (r.status() != 200 || !conversationIds(r.body()).equals(List.of(alice.conversationId())))) {
                wrong.add(name + ": lists other than the caller's one conversation: " + r.status() + " " + r.body());
            }
            if (name.startsWith("refused") && !refused(r)) {
                wrong.add(name + ": " + r.status() + " instead of a 403 out-of-scope problem " + r.body());
            }
            if (name.startsWith("names the other user")
                    && !(refused(r) && r.json().path("field").asText().endsWith("userId"))) {
                wrong.add(name + ": " + r.status() + " instead of a 403 naming userId " + r.body());
            }
        }

        // Writes aimed at the other user: refused or 404, and the other user's data unchanged.
        Map<String, Api.Response> writes = new LinkedHashMap<>();
        writes.put(
                "append by key",
                asAlice.post("/turns", addTurn(agent, "bob", "s1", obj("turnId", "x1", "userMessage", "overwrite"))));
        writes.put(
                "append by id",
                asAlice.post(
                        "/conversations/" + bob.conversationId() + "/turns",
                        obj("turnId", "x2", "userMessage", "overwrite")));
        writes.put(
                "metadata", asAlice.put("/conversations/" + bob.conversationId() + "/metadata", obj("owner", "alice")));
        writes.put("clear", asAlice.delete("/conversations/" + bob.conversationId() + "/turns"));
        writes.put("delete", asAlice.delete("/conversations/" + bob.conversationId()));
        writes.put(
                "episode",
                asAlice.post(
                        "/episodes", Episodes.episode(Episodes.ns(agent, "bob"), "planted", "planted", "failure")));
        for (Map.Entry<String, Api.Response> w : writes.entrySet()) {
            checked++;
            int status = w.getValue().status();
            if (status != 404 && status != 403) {
                wrong.add("write " + w.getKey() + ": " + status + " "
                        + w.getValue().body());
            }
        }
        checked++;
        String line = "{\"key\":{\"chatbotId\":\"" + agent + "\",\"userId\":\"bob\",\"sessionId\":\"s1\"},"
                + "\"turn\":{\"turnId\":\"x3\",\"userMessage\":\"imported over bob\"}}\n";
        Api.Response imported = asAlice.postRaw("/import", line, "application/x-ndjson");
        if (imported.status() != 200
                || imported.json().at("/errors/0/field").asText().isEmpty()
                || imported.json().path("turnsImported").asInt(-1) > 0) {
            wrong.add("import naming the other user: " + imported.status() + " " + imported.body());
        }
        checked++;
        Api.Response bobsHistory = service.get("/conversations/" + bob.conversationId());
        if (bobsHistory.status() != 200
                || bobsHistory.json().path("turns").size() != 1
                || bobsHistory.body().contains("overwrite")
                || bobsHistory.body().contains("imported over bob")
                || bobsHistory.body().contains("\"owner\"")) {
            wrong.add("the other user's conversation changed: " + bobsHistory.status() + " " + bobsHistory.body());
        }

        // A token scoped to one agent: the same user's conversation with another agent is out of reach.
        Api otherAgentsTurn = service;
        Api.Response elsewhere = otherAgentsTurn.post(
                "/turns",
                addTurn(
                        "other-" + agent,
                        "alice",
                        "s1",
                        obj("turnId", "t1", "userMessage", "Also " + bob.secret(), "assistantResponse", "ok")));
        assertThat(elsewhere.status()).as(elsewhere.body()).isEqualTo(201);
        Api asAgent = server.as(Tokens.of(server, tenant, List.of("memory-reader"))
                .withClaim("memory_agent", agent)
                .sign());
        checked += 3;
        long elsewhereId = elsewhere.json().get("conversationId").asLong();
        Api.Response byId = asAgent.get("/conversations/" + elsewhereId);
        if (byId.status() != 404) {
            wrong.add("agent scope, other agent's conversation: " + byId.status() + " " + byId.body());
        }
        Api.Response ownAgent = asAgent.get("/conversations/" + alice.conversationId());
        if (ownAgent.status() != 200 || !ownAgent.body().contains(alice.secret())) {
            wrong.add("agent scope, own agent's conversation: " + ownAgent.status() + " " + ownAgent.body());
        }
        Api.Response listed = asAgent.get("/conversations" + query("userId", "alice"));
        if (listed.status() != 200 || listed.body().contains("other-" + agent)) {
            wrong.add("agent scope, user's conversations list: " + listed.status() + " " + listed.body());
        }

        System.out.printf(
                Locale.ROOT,
                "[scoped tokens %s] %d paths checked, %d wrong answers%n",
                server.name(),
                checked,
                wrong.size());
        assertThat(wrong).isEmpty();
    }

    /**
     * A tenant's admin rebuilds its own tenant's documents only (issue 32 item 3): the run counts the tenant's rows,
     * not the other tenant's, and both tenants' searches still find their data afterwards; only the memory-operator
     * role merges every tenant's index segments.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aTenantAdminReindexesItsOwnTenantOnly(Api server) throws InterruptedException {
        String run = unique("reindex");
        Api small = server.as(
                Tokens.of(server, "small-" + run, List.of("memory-admin")).sign());
        Api large = server.as(
                Tokens.of(server, "large-" + run, List.of("memory-admin")).sign());
        String secret = "quokka" + run.replaceAll("[^a-z0-9]", "");
        assertThat(small.post(
                                "/turns",
                                addTurn("a", "u", "s", obj("turnId", "t1", "userMessage", "find " + secret + " here")))
                        .status())
                .isEqualTo(201);
        for (int i = 0; i < 30; i++) {
            assertThat(large.post("/turns", addTurn("a", "u", "s", obj("turnId", "t" + i, "userMessage", "large " + i)))
                            .status())
                    .isEqualTo(201);
        }
        Api.Response started = small.post("/admin/reindex", "");
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        com.fasterxml.jackson.databind.JsonNode status =
                small.get("/admin/reindex").json();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(3);
        while (status.path("state").asText().equals("running") && System.nanoTime() < deadline) {
            Thread.sleep(200);
            status = small.get("/admin/reindex").json();
        }
        assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("done");
        // The small tenant has one message (its turn's user message) and no episode; the large one has 30.
        assertThat(status.path("entitiesTotal").asLong())
                .as("rows the tenant reindex loaded: " + status)
                .isLessThan(30);
        Api.Response found = small.post("/messages/search", obj("userId", "u", "query", secret, "mode", "full_text"));
        assertThat(found.body()).contains(secret);
        Api.Response theirs = large.post("/messages/search", obj("userId", "u", "query", "large", "mode", "full_text"));
        assertThat(theirs.json().path("hits").size()).as(theirs.body()).isGreaterThan(0);

        Api.Response merge = small.post("/admin/reindex/merge", "");
        assertThat(merge.status())
                .as("a tenant admin merging every tenant's segments")
                .isEqualTo(403);
        assertThat(merge.json().path("detail").asText()).contains("memory-operator");
    }

    private static List<Long> conversationIds(String body) {
        List<Long> ids = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"conversationId\"\\s*:\\s*(\\d+)")
                .matcher(body);
        while (m.find()) {
            ids.add(Long.parseLong(m.group(1)));
        }
        return ids;
    }

    private static boolean refused(Api.Response r) {
        return r.status() == 403
                && String.valueOf(r.contentType()).startsWith("application/problem+json")
                && r.json().path("type").asText().endsWith("out-of-scope");
    }

    private static Stored store(Api api, String agent, String user, String secret) {
        String output = ("tool output of " + user + " " + secret + "\n").repeat(1500);
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
        Map<String, Object> episode =
                Episodes.episode(Episodes.ns(agent, user), "Deploy of " + secret, "rolled back " + secret, "failure");
        episode.put("lessonLearned", "never deploy " + secret + " on Friday");
        String episodeId = Episodes.record(api, episode).get("episodeId").asText();
        return new Stored(user, secret, id, contentId, episodeId);
    }

    private static Map<String, Supplier<Api.Response>> reads(Api api, String agent, Stored me, Stored other) {
        Map<String, Supplier<Api.Response>> reads = new LinkedHashMap<>();
        long theirs = other.conversationId();
        reads.put("other's id: history", () -> api.get("/conversations/" + theirs));
        reads.put("other's id: turns", () -> api.get("/conversations/" + theirs + "/turns"));
        reads.put("other's id: turn", () -> api.get("/conversations/" + theirs + "/turns/1"));
        reads.put("other's id: metadata", () -> api.get("/conversations/" + theirs + "/metadata"));
        reads.put("other's id: export", () -> api.get("/conversations/" + theirs + "/export"));
        reads.put(
                "other's id: omission", () -> api.get("/conversations/" + theirs + "/omissions/" + other.contentId()));
        reads.put(
                "other's id: omission list",
                () -> api.get("/conversations/" + theirs + "/omissions" + query("turnId", "t1")));
        reads.put(
                "other's id: context", () -> api.post("/conversations/" + theirs + "/context", obj("model", "gpt-4o")));
        reads.put(
                "other's id: assembly",
                () -> api.post("/conversations/" + theirs + "/context/assemble", obj("query", "word")));
        reads.put("other's id: episode", () -> api.get("/episodes/" + other.episodeId()));
        String omitted = "/omitted" + query("contentId", other.contentId());
        reads.put("no oracle: read_omitted_content", () -> {
            Api.Response r = api.get("/conversations/" + theirs + omitted);
            Api.Response none = api.get("/conversations/999999999999" + omitted);
            return r.status() == none.status() && r.body().equals(none.body())
                    ? r
                    : new Api.Response(599, r.headers(), "differs from an unknown id: " + r.body());
        });

        reads.put(
                "own history by key, no user named",
                () -> api.get("/conversations/lookup" + query("sessionId", "s1", "chatbotId", agent)));
        reads.put("own history by id", () -> api.get("/conversations/" + me.conversationId()));
        reads.put(
                "own omission",
                () -> api.get("/conversations/" + me.conversationId() + "/omissions/" + me.contentId()));
        reads.put("lists own: conversations, no user named", () -> api.get("/conversations"));
        reads.put(
                "lists own: agent's conversations",
                () -> api.get("/chatbots/conversations" + query("chatbotId", agent)));
        reads.put("own export, no user named", () -> api.get("/export" + query("chatbotId", agent)));
        reads.put(
                "own context by key",
                () -> api.post(
                        "/context", obj("sessionId", "s1", "chatbotId", agent, "context", obj("model", "gpt-4o"))));
        for (String mode : List.of("full_text", "vector", "hybrid")) {
            reads.put(
                    "message search, no user named, " + mode,
                    () -> api.post(
                            "/messages/search",
                            obj(
                                    "chatbotId",
                                    agent,
                                    "conversationId",
                                    theirs,
                                    "query",
                                    "remember the word " + other.secret(),
                                    "mode",
                                    mode)));
            reads.put(
                    "own episode recall, agent only, " + mode,
                    () -> api.post(
                            "/episodes/recall",
                            obj("namespace", obj("agentId", agent), "query", "deploy rolled back", "mode", mode)));
        }
        String ns = query("agentId", agent);
        reads.put("warnings, agent only", () -> api.get("/episodes/warnings" + ns + "&query=deploy"));
        reads.put("episodic context, agent only", () -> api.get("/episodes/context" + ns + "&query=deploy"));
        reads.put("preferences, agent only", () -> api.get("/episodes/preferences" + ns));
        reads.put("room context, agent only", () -> api.get("/episodes/room-context" + ns));
        reads.put("own episode list, agent only", () -> api.get("/episodes" + ns));
        reads.put("own episode export, agent only", () -> api.get("/episodes/export" + ns));
        reads.put("episode count, agent only", () -> api.get("/episodes/count" + ns));
        reads.put(
                "agent tool search",
                () -> api.post(
                        "/tools/episodic/search_episodic_memory",
                        obj("namespace", obj("agentId", agent), "query", "deploy rolled back")));
        reads.put(
                "agent tool warnings",
                () -> api.post(
                        "/tools/episodic/get_warnings", obj("namespace", obj("agentId", agent), "query", "deploy")));

        reads.put(
                "names the other user: lookup",
                () -> api.get("/conversations/lookup" + query("userId", other.user(), "sessionId", "s1")));
        reads.put("names the other user: list", () -> api.get("/conversations" + query("userId", other.user())));
        reads.put(
                "names the other user: message search",
                () -> api.post("/messages/search", obj("userId", other.user(), "query", "word")));
        reads.put(
                "names the other user: recall",
                () -> api.post(
                        "/episodes/recall",
                        obj("namespace", obj("agentId", agent, "userId", other.user()), "query", "deploy")));
        reads.put(
                "names the other user: warnings",
                () -> api.get("/episodes/warnings" + query("agentId", agent, "userId", other.user(), "query", "x")));
        reads.put("names the other user: export", () -> api.get("/export" + query("userId", other.user())));
        reads.put("refused: answers", () -> api.get("/answers" + query("agentId", agent, "turnId", "t1")));
        reads.put("refused: agent's users", () -> api.get("/chatbots/users" + query("chatbotId", agent)));
        reads.put("refused: agent's statistics", () -> api.get("/chatbots/stats" + query("chatbotId", agent)));
        reads.put("refused: reindex", () -> api.post("/admin/reindex", ""));
        return reads;
    }
}
