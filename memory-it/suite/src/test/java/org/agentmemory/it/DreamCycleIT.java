package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Databases;
import org.agentmemory.it.support.ManagementCli;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dream cycle (issue 33 item 2, spec §12.2) on real WildFly with H2 and PostgreSQL, run through
 * {@code POST /brain/cycles}: 60 episodes in 5 known themes become 5 pages with per-statement evidence, marks,
 * reinforcement and a watermark, and a second run consolidates nothing; a crash between archive and mark (injected)
 * re-runs without duplicates; a contradicting later episode supersedes a statement that {@code asOf} still shows;
 * an empty agent finishes with zero changes; concurrent runs and a live lease answer 409; a stale lease is taken
 * over; tenants and token scopes are kept apart.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it changes the servers' settings through WildFly's management CLI.
 */
class DreamCycleIT {

    /** Five themes far apart in meaning; within a theme the texts differ only in a number. */
    static final String[][] THEMES = {
        {
            "kubectl",
            "kubectl apply to namespace team-%d was rejected: exceeded quota for pods",
            "Check the namespace pod quota before kubectl apply",
            "Scale down idle deployments first",
            "Ask the platform team for a quota raise early"
        },
        {
            "psql",
            "The nightly psql migration %d stopped on a lock timeout on the orders table",
            "Run migrations outside the order peak",
            "Set a lock_timeout on every migration",
            "Split large table rewrites into batches"
        },
        {
            "stripe",
            "Charging card number %d through the Stripe API was declined as insufficient funds",
            "Never retry a declined card automatically",
            "Tell the customer which card failed",
            "Log the decline code for the finance report"
        },
        {
            "smtp",
            "Sending newsletter batch %d over SMTP hit the provider's hourly rate limit",
            "Spread newsletter batches over the hour",
            "Read the provider's rate limit headers",
            "Keep transactional mail on a separate sender"
        },
        {
            "pdf",
            "Rendering invoice PDF %d failed because the Noto font was missing",
            "Bundle the fonts with the PDF renderer",
            "Fail the render when a font is missing",
            "Test invoices with non-Latin names"
        }
    };

    static Stream<Api> servers() {
        return Stream.of(Api.h2(), Api.postgres());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void sixtyEpisodesInFiveThemesBecomeFivePagesWithEvidenceAndASecondRunDoesNothing(Api api) throws Exception {
        String agent = unique("dream");
        Map<String, String> lessonOf = new HashMap<>();
        List<JsonNode> recorded = recordThemes(api, agent, 12, lessonOf);
        Instant newest = recorded.stream()
                .map(e -> Instant.parse(e.get("createdAt").asText()))
                .max(Instant::compareTo)
                .orElseThrow();

        JsonNode report = run(api, agent);

        assertThat(report.get("aborted").asBoolean()).as(report.toString()).isFalse();
        assertThat(report.get("episodesCollected").asInt()).isEqualTo(60);
        assertThat(report.get("episodesConsolidated").asInt()).isEqualTo(60);
        Set<String> expected = new HashSet<>();
        for (String[] theme : THEMES) {
            expected.add(pageId("Tool Execution pattern: " + theme[0], "lesson"));
        }
        assertThat(texts(report.get("pagesCreated"))).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(report.get("statementsAdded").asInt()).isEqualTo(15);

        for (String[] theme : THEMES) {
            String id = pageId("Tool Execution pattern: " + theme[0], "lesson");
            JsonNode page =
                    api.get("/brain/pages/" + id + query("agentId", agent)).json();
            assertThat(page.get("reinforcementCount").asInt()).isEqualTo(1);
            assertThat(page.get("statements")).hasSize(3);
            for (JsonNode statement : page.get("statements")) {
                String lesson = statement.get("text").asText();
                assertThat(lesson).isIn(theme[2], theme[3], theme[4]);
                List<String> evidence = texts(statement.get("evidence"));
                // each lesson was said by 4 episodes of its theme; every second one came from a turn
                assertThat(evidence.stream().filter(e -> e.startsWith("episode:")))
                        .hasSize(4);
                assertThat(evidence.stream().filter(e -> e.startsWith("turn:"))).hasSize(2);
                for (String e : evidence) {
                    if (e.startsWith("episode:")) {
                        assertThat(lessonOf.get(e.substring("episode:".length())))
                                .isEqualTo(lesson);
                    }
                }
            }
        }
        JsonNode one = api.get("/episodes/" + recorded.get(0).get("episodeId").asText())
                .json();
        assertThat(one.get("metadata").get("consolidated_into").asText())
                .isEqualTo(pageId("Tool Execution pattern: kubectl", "lesson"));

        JsonNode schedule = api.get("/brain/schedule" + query("agentId", agent)).json();
        assertThat(Instant.parse(schedule.get("watermark").asText())).isEqualTo(newest);
        assertThat(schedule.get("cyclesCompleted").asLong()).isEqualTo(1);
        assertThat(schedule.get("episodesConsolidated").asLong()).isEqualTo(60);
        assertThat(schedule.get("running").asBoolean()).isFalse();
        assertThat(schedule.get("enabled").asBoolean()).isFalse();

        JsonNode again = run(api, agent);
        assertThat(again.get("episodesCollected").asInt()).isZero();
        assertThat(again.get("pagesCreated")).isEmpty();
        assertThat(again.get("pagesMerged")).isEmpty();
        assertThat(again.get("aborted").asBoolean()).isFalse();

        JsonNode reports = api.get("/brain/cycles" + query("agentId", agent)).json();
        assertThat(reports.get("items")).hasSize(2);
        assertThat(reports.get("items").get(0).get("cycleId").asLong())
                .isGreaterThan(reports.get("items").get(1).get("cycleId").asLong());
        assertThat(reports.get("items").get(0).get("trigger").asText()).isEqualTo("manual");

        // the pages feed the brain section of the agent's context
        String knowledge = api.post(
                        "/brain/knowledge", obj("agentId", agent, "query", "card declined by Stripe", "maxTokens", 200))
                .json()
                .get("knowledge")
                .asText();
        assertThat(knowledge).contains(pageId("Tool Execution pattern: stripe", "lesson"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aCrashBetweenArchiveAndMarkReRunsWithoutDuplicates(Api api) throws Exception {
        String agent = unique("crash");
        recordThemes(api, agent, 6, new HashMap<>());
        Path home = Path.of(System.getProperty(api.name().equals("h2") ? "it.h2.home" : "it.pg.home"));
        JsonNode crashed;
        ManagementCli.systemProperty(api, home, "memory.dream.fault", "fail-mark");
        try {
            crashed = run(api, agent);
        } finally {
            ManagementCli.systemProperty(api, home, "memory.dream.fault", null);
        }
        assertThat(crashed.get("aborted").asBoolean()).isTrue();
        assertThat(crashed.get("abortReason").asText()).startsWith("mark failed");
        assertThat(crashed.get("episodesConsolidated").asInt()).isZero();
        String kubectl = pageId("Tool Execution pattern: kubectl", "lesson");
        assertThat(texts(crashed.get("pagesCreated"))).containsExactly(kubectl); // archived, then the "crash"
        JsonNode before =
                api.get("/brain/pages/" + kubectl + query("agentId", agent)).json();
        JsonNode schedule = api.get("/brain/schedule" + query("agentId", agent)).json();
        assertThat(schedule.get("watermark").isNull()).isTrue();
        assertThat(schedule.get("lastAborted").asBoolean()).isTrue();

        JsonNode rerun = run(api, agent);

        assertThat(rerun.get("aborted").asBoolean()).isFalse();
        assertThat(rerun.get("episodesConsolidated").asInt()).isEqualTo(30);
        assertThat(rerun.get("pagesCreated")).hasSize(4);
        JsonNode after =
                api.get("/brain/pages/" + kubectl + query("agentId", agent)).json();
        assertThat(after.get("statements")).isEqualTo(before.get("statements"));
        assertThat(texts(
                        api.get("/brain/pages" + query("agentId", agent)).json().get("items"), "pageId"))
                .hasSize(5)
                .doesNotHaveDuplicates();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aContradictingLaterEpisodeSupersedesAStatementThatAsOfStillShows(Api api) throws Exception {
        String agent = unique("contra");
        record(api, agent, "Release 1 went out on Friday afternoon", "Deploy on Fridays", "deploy", 0, null);
        JsonNode first = run(api, agent);
        String page = texts(first.get("pagesCreated")).get(0);
        Instant between = Instant.now();
        Thread.sleep(20);
        record(api, agent, "Release 2 on Friday broke checkout", "Never deploy on Fridays", "deploy", 1, null);
        JsonNode second = run(api, agent);
        assertThat(second.get("statementsSuperseded").asInt()).isEqualTo(1);
        assertThat(texts(second.get("pagesMerged"))).containsExactly(page);

        JsonNode now = api.get("/brain/pages/" + page + query("agentId", agent)).json();
        assertThat(texts(now.get("statements"), "text")).containsExactly("Never deploy on Fridays");
        JsonNode then = api.get("/brain/pages/" + page + query("agentId", agent, "asOf", between.toString()))
                .json();
        assertThat(texts(then.get("statements"), "text")).containsExactly("Deploy on Fridays");
        assertThat(now.get("reinforcementCount").asInt()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aPageIsPromotedToTheOrganisationOnlyAfterThreeDistinctCycles(Api server) throws Exception {
        String agent = unique("promote");
        Api api = server.as(
                Tokens.of(server, "org-" + agent, List.of("memory-admin")).sign()); // its own org brain
        String page = pageId("Tool Execution pattern: git", "lesson");
        List<List<String>> promoted = new ArrayList<>();
        for (int cycle = 1; cycle <= 4; cycle++) {
            record(
                    api,
                    agent,
                    "git push of release " + cycle + " was rejected as non-fast-forward",
                    "Fetch and rebase before pushing a release (" + cycle + ")",
                    "git",
                    cycle,
                    null);
            JsonNode report = run(api, agent);
            promoted.add(texts(report.get("pagesPromoted")));
            if (cycle < 3) {
                assertThat(api.get("/brain/pages/" + page).status())
                        .as("org page after cycle %d", cycle)
                        .isEqualTo(404);
            }
        }
        assertThat(promoted).containsExactly(List.of(), List.of(), List.of(page), List.of());
        JsonNode agentPage =
                api.get("/brain/pages/" + page + query("agentId", agent)).json();
        assertThat(agentPage.get("reinforcementCount").asInt()).isEqualTo(4);
        // the organisation brain of the tenant: attribution and evidence kept, the fourth cycle's statement merged
        JsonNode org = api.get("/brain/pages/" + page).json();
        assertThat(org.get("assertedBy").asText()).isEqualTo("agent:" + agent);
        assertThat(org.get("statements")).hasSize(4);
        assertThat(texts(org.get("statements").get(0).get("evidence")))
                .isEqualTo(texts(agentPage.get("statements").get(0).get("evidence")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anAgentWithoutEpisodesOrBrainFinishesWithZeroChanges(Api api) {
        String agent = unique("empty");
        JsonNode report = run(api, agent);
        assertThat(report.get("aborted").asBoolean()).isFalse();
        assertThat(report.get("episodesCollected").asInt()).isZero();
        assertThat(report.get("groupsFormed").asInt()).isZero();
        assertThat(report.get("pagesCreated")).isEmpty();
        assertThat(report.get("watermarkAfter").isNull()).isTrue();
        assertThat(api.get("/brain/pages" + query("agentId", agent)).json().get("items"))
                .isEmpty();
        assertThat(api.post("/brain/knowledge", obj("agentId", agent, "query", "anything"))
                        .json()
                        .get("knowledge")
                        .asText())
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void badInputAndNarrowedTokensAreRefused(Api api) {
        assertProblem(api.post("/brain/cycles", obj()), 400, "agentId");
        assertProblem(api.post("/brain/cycles", obj("agentId", "a\u0000b")), 400, "agentId");
        assertProblem(api.put("/brain/schedule", obj("agentId", "x")), 400, "enabled");
        assertProblem(
                api.put("/brain/schedule", obj("agentId", "x", "enabled", true, "intervalSeconds", 0)),
                400,
                "intervalSeconds");
        assertProblem(api.get("/brain/cycles" + query("agentId", "x", "limit", "0")), 400, "limit");
        Api user = api.as(Tokens.of(api, "default", List.of("memory-admin"))
                .withClaim("memory_user", "alice")
                .sign());
        assertThat(user.post("/brain/cycles", obj("agentId", "x")).status()).isEqualTo(403);
        Api other = api.as(Tokens.of(api, "default", List.of("memory-admin"))
                .withClaim("memory_agent", "agent-a")
                .sign());
        assertThat(other.post("/brain/cycles", obj("agentId", "agent-b")).status())
                .isEqualTo(403);
        Api reader = api.as(Tokens.of(api, "default", List.of("memory-reader")).sign());
        assertThat(reader.post("/brain/cycles", obj("agentId", "x")).status()).isEqualTo(403);
        assertThat(reader.put("/brain/schedule", obj("agentId", "x", "enabled", true))
                        .status())
                .isEqualTo(403);
    }

    @Test
    void anotherTenantSeesNoneOfItAndItsCycleReadsOnlyItsOwnEpisodes() {
        Api api = Api.postgres();
        String agent = unique("tenants");
        recordThemes(api, agent, 1, new HashMap<>());
        Api other =
                api.as(Tokens.of(api, "other-" + agent, List.of("memory-admin")).sign());
        JsonNode theirs = run(other, agent);
        assertThat(theirs.get("episodesCollected").asInt()).isZero();
        JsonNode ours = run(api, agent);
        assertThat(ours.get("episodesCollected").asInt()).isEqualTo(5);
        assertThat(other.get("/brain/cycles" + query("agentId", agent)).json().get("items"))
                .hasSize(1);
        assertThat(other.get("/brain/pages" + query("agentId", agent)).json().get("items"))
                .isEmpty();
        String page = texts(ours.get("pagesCreated")).get(0);
        assertThat(other.get("/brain/pages/" + page + query("agentId", agent)).status())
                .isEqualTo(404);
    }

    @Test
    void concurrentRunsAndALiveLeaseAnswer409AndAStaleLeaseIsTakenOver() throws Exception {
        Api api = Api.postgres();
        String agent = unique("race");
        recordThemes(api, agent, 1, new HashMap<>());
        Path home = Path.of(System.getProperty("it.pg.home"));
        List<Api.Response> answers = new ArrayList<>();
        ManagementCli.systemProperty(api, home, "memory.dream.fault", "pause-after-archive:1500");
        try {
            CompletableFuture<Api.Response> a =
                    CompletableFuture.supplyAsync(() -> api.post("/brain/cycles", obj("agentId", agent)));
            CompletableFuture<Api.Response> b =
                    CompletableFuture.supplyAsync(() -> api.post("/brain/cycles", obj("agentId", agent)));
            answers.add(a.join());
            answers.add(b.join());
        } finally {
            ManagementCli.systemProperty(api, home, "memory.dream.fault", null);
        }
        assertThat(answers).extracting(Api.Response::status).containsExactlyInAnyOrder(200, 409);
        Api.Response conflict =
                answers.stream().filter(r -> r.status() == 409).findFirst().orElseThrow();
        assertThat(conflict.json().get("type").asText()).endsWith("cycle-running");
        assertThat(api.get("/brain/cycles" + query("agentId", agent)).json().get("items"))
                .hasSize(1);

        // a live lease held by another server: 409; the same lease older than 2 × interval: taken over
        try (Connection db = Databases.suite()) {
            lease(db, agent, "other-server/1", "now()");
            assertThat(api.post("/brain/cycles", obj("agentId", agent)).status())
                    .isEqualTo(409);
            assertThat(api.get("/brain/schedule" + query("agentId", agent))
                            .json()
                            .get("leaseOwner")
                            .asText())
                    .isEqualTo("other-server/1");
            lease(db, agent, "other-server/1", "now() - interval '3 days'");
            Api.Response taken = api.post("/brain/cycles", obj("agentId", agent));
            assertThat(taken.status()).as(taken.body()).isEqualTo(200);
            assertThat(taken.json().get("serverId").asText()).isNotEqualTo("other-server/1");
            assertThat(api.get("/brain/schedule" + query("agentId", agent))
                            .json()
                            .get("running")
                            .asBoolean())
                    .isFalse();
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Records {@code perLesson × 15} episodes: per theme, each of its 3 lessons {@code perLesson / 3}… times. */
    static List<JsonNode> recordThemes(Api api, String agent, int perTheme, Map<String, String> lessonOf) {
        List<JsonNode> recorded = new ArrayList<>();
        int n = 0;
        for (int i = 0; i < perTheme; i++) {
            for (String[] theme : THEMES) {
                String lesson = theme[2 + (i % 3)];
                JsonNode e =
                        record(api, agent, theme[1].formatted(i + 1), lesson, theme[0], n, n % 2 == 0 ? "t" : null);
                lessonOf.put(e.get("episodeId").asText(), lesson);
                recorded.add(e);
                n++;
            }
        }
        return recorded;
    }

    static JsonNode record(Api api, String agent, String situation, String lesson, String tool, int n, String turn) {
        Map<String, Object> body = obj(
                "namespace",
                obj("agentId", agent, "userId", "user-" + (n % 3)),
                "situation",
                situation,
                "actionTaken",
                "Retried once and reported the failure",
                "outcome",
                "failure",
                "category",
                "tool_execution",
                "relatedTools",
                List.of(tool),
                "importance",
                6,
                "generateReflection",
                false,
                "lessonLearned",
                lesson);
        if (turn != null) {
            body.put("metadata", obj("conversation_id", "conv-" + n, "turn_id", turn + n));
        }
        Api.Response r = api.post("/episodes", body);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json();
    }

    static JsonNode run(Api api, String agent) {
        Api.Response r = api.post("/brain/cycles", obj("agentId", agent));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    static String pageId(String title, String category) throws Exception {
        byte[] digest =
                MessageDigest.getInstance("SHA-1").digest((title + "::" + category).getBytes(StandardCharsets.UTF_8));
        return "mem-" + HexFormat.of().formatHex(digest).substring(0, 12);
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(field).asText()));
        return out;
    }

    static void assertProblem(Api.Response r, int status, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.body()).contains(field);
    }

    private static void lease(Connection db, String agent, String owner, String since) throws Exception {
        try (PreparedStatement ps = db.prepareStatement("UPDATE dream_schedule SET lease_owner = ?, running_since = "
                + since + " WHERE tenant_id = 'default' AND agent_id = ?")) {
            ps.setString(1, owner);
            ps.setString(2, agent);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }
}
