package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.agentmemory.api.brain.BrainMemoryRemote;
import org.agentmemory.api.brain.BrainRef;
import org.agentmemory.api.brain.PageWrite;
import org.agentmemory.api.brain.PageWriteResult;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.RemoteClient;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Brain pages (issue 33 item 1) on real WildFly with H2 and PostgreSQL: deterministic page ids (spec §12.3),
 * statements merged with their evidence instead of overwritten (spec §13 #9), a contradiction superseding a statement
 * that stays readable with {@code asOf}, agent and organisation brains apart, tenants apart, full-text search and the
 * packed knowledge section (spec §12.4), input rules, token scopes, concurrent first writes, and the remote view
 * acting in its caller's tenant.
 */
class BrainPagesIT {

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void writesMergeStatementsAndAContradictionStaysAsHistory(Api api) throws Exception {
        String agent = unique("brain");
        Map<String, Object> first = page(agent, "- Run migrations off-peak\n- Deploy on Fridays", "episode:e-1");
        Api.Response created = api.post("/brain/pages", first);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String pageId = created.json().get("pageId").asText();
        assertThat(pageId).isEqualTo(expectedId("Database migrations", "lesson"));
        assertThat(created.json().get("added").asInt()).isEqualTo(2);

        Api.Response again = api.post("/brain/pages", first);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("status").asText()).isEqualTo("unchanged");

        Api.Response reinforced = api.post("/brain/pages", page(agent, "- run migrations OFF-PEAK.", "turn:17/t-3"));
        assertThat(reinforced.json().get("status").asText()).isEqualTo("updated");
        assertThat(reinforced.json().get("reinforced").asInt()).isEqualTo(1);
        assertThat(reinforced.json().get("added").asInt()).isZero();

        Instant before = Instant.now();
        Thread.sleep(20);
        Api.Response contradicted = api.post("/brain/pages", page(agent, "- Never deploy on Fridays", "episode:e-9"));
        assertThat(contradicted.json().get("superseded").asInt()).isEqualTo(1);

        JsonNode now =
                api.get("/brain/pages/" + pageId + query("agentId", agent)).json();
        assertThat(now.get("body").asText()).isEqualTo("- Run migrations off-peak\n- Never deploy on Fridays");
        assertThat(now.get("statements").get(0).get("evidence").toString())
                .isEqualTo("[\"episode:e-1\",\"turn:17/t-3\"]");
        assertThat(now.get("reinforcementCount").asInt()).isEqualTo(2);
        JsonNode then = api.get("/brain/pages/" + pageId + query("agentId", agent, "asOf", before.toString()))
                .json();
        assertThat(then.get("body").asText()).isEqualTo("- Run migrations off-peak\n- Deploy on Fridays");
        assertThat(then.get("asOf").asText()).isEqualTo(before.toString());
        assertThat(api.get("/brain/pages/" + pageId + query("agentId", agent, "asOf", "2000-01-01T00:00:00Z"))
                        .status())
                .isEqualTo(404);

        // The organisation brain and another tenant are apart.
        assertThat(api.get("/brain/pages/" + pageId).status()).isEqualTo(404);
        Api other =
                api.as(Tokens.of(api, "other-" + agent, List.of("memory-admin")).sign());
        assertThat(other.get("/brain/pages/" + pageId + query("agentId", agent)).status())
                .isEqualTo(404);
        assertThat(other.post("/brain/search", obj("agentId", agent, "query", "migrations"))
                        .json()
                        .get("hits"))
                .isEmpty();

        // Search and the packed knowledge section.
        JsonNode hits = api.post("/brain/search", obj("agentId", agent, "query", "when do we run migrations"))
                .json()
                .get("hits");
        assertThat(hits).hasSize(1);
        assertThat(hits.get(0).get("pageId").asText()).isEqualTo(pageId);
        String knowledge = api.post(
                        "/brain/knowledge", obj("agentId", agent, "query", "migrations friday", "maxTokens", 200))
                .json()
                .get("knowledge")
                .asText();
        assertThat(knowledge)
                .startsWith("- [" + pageId + "] Database migrations — - Run migrations off-peak - Never deploy on"
                        + " Fridays (score=")
                .matches("(?s).*, ~\\d+tok\\)$");
        api.post("/brain/pages", obj("agentId", agent, "title", "Second page", "body", "- migrations are slow"));
        String tight = api.post(
                        "/brain/knowledge", obj("agentId", agent, "query", "migrations", "topK", 5, "maxTokens", 1))
                .json()
                .get("knowledge")
                .asText();
        assertThat(tight.split("\n"))
                .as("the first line always, nothing beyond the budget")
                .hasSize(1);
        assertThat(api.post("/brain/knowledge", obj("agentId", agent, "query", "zebra quokka"))
                        .json()
                        .get("knowledge")
                        .asText())
                .isEmpty();
        JsonNode list =
                api.get("/brain/pages" + query("agentId", agent, "limit", "1")).json();
        assertThat(list.get("items")).hasSize(1);
        assertThat(list.get("nextCursor").isNull()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void badWritesAndScopedTokensAreRefused(Api api) {
        String agent = unique("brain-bad");
        assertProblem(api.post("/brain/pages", obj("agentId", agent)), 400, "body");
        assertProblem(api.post("/brain/pages", obj("agentId", agent, "body", "x".repeat(4001))), 400, "body");
        assertProblem(
                api.post("/brain/pages", obj("agentId", agent, "body", "- a", "category", "rumour")), 400, "category");
        assertProblem(
                api.post("/brain/pages", obj("agentId", agent, "body", "- a", "confidence", 2)), 400, "confidence");
        assertProblem(
                api.post("/brain/pages", obj("agentId", agent, "body", "- a", "evidence", List.of("nope"))),
                400,
                "evidence[0]");
        assertProblem(api.get("/brain/pages/mem-000000000000" + query("asOf", "yesterday")), 400, "asOf");
        assertProblem(api.post("/brain/search", obj("agentId", agent, "query", "a", "topK", 0)), 400, "topK");

        Api asUser = api.as(Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_user", "alice")
                .sign());
        assertThat(asUser.post("/brain/pages", obj("agentId", agent, "body", "- a"))
                        .status())
                .isEqualTo(403);
        Api asAgent = api.as(Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_agent", agent)
                .sign());
        assertThat(asAgent.post("/brain/pages", obj("agentId", "another", "body", "- a"))
                        .status())
                .isEqualTo(403);
        assertThat(asAgent.post(
                                "/brain/pages",
                                obj("agentId", agent, "body", "- a low-confidence guess", "confidence", 0.1))
                        .json()
                        .get("category")
                        .asText())
                .as("the confidence rule")
                .isEqualTo("note");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void concurrentFirstWritesOfOnePageMergeIntoOne(Api api) throws Exception {
        String agent = unique("brain-race");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Api.Response>> writes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Map<String, Object> body = page(agent, "- statement " + i, "episode:e-" + i);
            writes.add(pool.submit(() -> api.post("/brain/pages", body)));
        }
        List<String> pageIds = new ArrayList<>();
        for (Future<Api.Response> w : writes) {
            Api.Response r = w.get();
            assertThat(r.status()).as(r.body()).isIn(200, 201);
            pageIds.add(r.json().get("pageId").asText());
        }
        pool.shutdown();
        assertThat(pageIds).containsOnly(pageIds.get(0));
        JsonNode page = api.get("/brain/pages/" + pageIds.get(0) + query("agentId", agent))
                .json();
        assertThat(page.get("statements")).hasSize(8);
        assertThat(api.get("/brain/pages" + query("agentId", agent)).json().get("items"))
                .hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void contextAssemblyCarriesFailureWarningsAndBrainKnowledge(Api api) {
        String agent = unique("brain-ctx");
        String user = "user-" + agent;
        assertThat(api.post(
                                "/turns",
                                org.agentmemory.it.support.Turns.addTurn(
                                        agent,
                                        user,
                                        "s1",
                                        obj(
                                                "turnId",
                                                "t1",
                                                "userMessage",
                                                "Migrate the invoices table",
                                                "assistantResponse",
                                                "Planned")))
                        .status())
                .isEqualTo(201);
        Map<String, Object> failure = org.agentmemory.it.support.Episodes.episode(
                org.agentmemory.it.support.Episodes.ns(agent, user),
                "The invoices migration locked the table",
                "Ran the migration at noon",
                "failure");
        failure.put("errorMessage", "lock wait timeout on invoices");
        failure.put("lessonLearned", "Run invoice migrations off-peak");
        org.agentmemory.it.support.Episodes.record(api, failure);
        api.post(
                "/brain/pages",
                obj("agentId", agent, "title", "Invoice migrations", "body", "- Run invoice migrations off-peak"));

        JsonNode assembled = api.post(
                        "/context/assemble",
                        obj(
                                "chatbotId",
                                agent,
                                "userId",
                                user,
                                "sessionId",
                                "s1",
                                "query",
                                "invoices migration",
                                "config",
                                obj("enableBrain", true),
                                "context",
                                obj("model", "gpt-4o")))
                .json();
        assertThat(assembled.get("episodicWarnings").asText()).contains("invoices migration locked the table");
        assertThat(assembled.get("semanticKnowledge").asText())
                .startsWith("- [mem-")
                .contains("Invoice migrations");
        assertThat(assembled.get("prompt").asText())
                .contains("<past_failures_to_avoid>")
                .contains("<brain_knowledge>")
                .contains("<recent_conversation>");
        assertThat(assembled.get("tokensUsed").asInt())
                .isLessThanOrEqualTo(assembled.get("tokensBudget").asInt());

        // A small budget: the sections and the conversation together stay within it, by the real tokenizer.
        JsonNode small = api.post(
                        "/context/assemble",
                        obj(
                                "chatbotId",
                                agent,
                                "userId",
                                user,
                                "sessionId",
                                "s1",
                                "query",
                                "invoices migration",
                                "config",
                                obj("enableBrain", true, "maxContextTokens", 60),
                                "context",
                                obj("model", "gpt-4o")))
                .json();
        assertThat(small.get("tokensUsed").asInt()).isPositive().isLessThanOrEqualTo(54);

        // Another user of the same agent gets no warnings from this user's failure (spec §13 #6).
        assertThat(api.post(
                                "/turns",
                                org.agentmemory.it.support.Turns.addTurn(
                                        agent, "someone-else", "s1", obj("turnId", "t1", "userMessage", "Hello")))
                        .status())
                .isEqualTo(201);
        Api.Response otherResponse = api.post(
                "/context/assemble",
                obj(
                        "chatbotId",
                        agent,
                        "userId",
                        "someone-else",
                        "sessionId",
                        "s1",
                        "query",
                        "invoices migration",
                        "config",
                        obj("enableBrain", true),
                        "context",
                        obj("model", "gpt-4o")));
        assertThat(otherResponse.status()).as(otherResponse.body()).isEqualTo(200);
        assertThat(otherResponse.json().get("episodicWarnings").asText()).isEmpty();
        assertThat(otherResponse.json().get("semanticKnowledge").asText())
                .as("brain knowledge is the agent's, shared by its users")
                .contains("Invoice migrations");
    }

    @Test
    void theRemoteViewWritesIntoItsCallersTenant() throws Exception {
        RemoteClient.assumeRemoting();
        String agent = unique("brain-remote");
        BrainMemoryRemote alice = RemoteClient.lookup(
                "ejb:agent-memory/memory-ejb/BrainMemoryBean!" + BrainMemoryRemote.class.getName(),
                BrainMemoryRemote.class,
                RemoteClient.ALICE);
        PageWriteResult written = alice.remember(
                new BrainRef("default", agent), new PageWrite("Remote", "- written remotely", "note", null, null));
        assertThat(written.status()).isEqualTo("created");
        Api api = Api.postgres();
        assertThat(api.get("/brain/pages/" + written.pageId() + query("agentId", agent))
                        .status())
                .as("not in tenant default")
                .isEqualTo(404);
        Api tenantA =
                api.as(Tokens.of(api, "ejb-tenant-a", List.of("memory-reader")).sign());
        assertThat(tenantA.get("/brain/pages/" + written.pageId() + query("agentId", agent))
                        .body())
                .contains("written remotely");
    }

    private static Map<String, Object> page(String agent, String body, String evidence) {
        return obj(
                "agentId",
                agent,
                "title",
                "Database migrations",
                "category",
                "lesson",
                "body",
                body,
                "evidence",
                List.of(evidence));
    }

    private static String expectedId(String title, String category) throws Exception {
        byte[] sha1 =
                MessageDigest.getInstance("SHA-1").digest((title + "::" + category).getBytes(StandardCharsets.UTF_8));
        return "mem-" + HexFormat.of().formatHex(sha1).substring(0, 12);
    }

    private static void assertProblem(Api.Response r, int status, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().path("field").asText()).as(r.body()).isEqualTo(field);
    }
}
