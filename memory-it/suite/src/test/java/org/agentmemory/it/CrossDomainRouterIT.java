package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Contexts;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cross-domain router (issue 35 item 3; spec §9.3 branch 1, §9.5) on real WildFly with H2 and PostgreSQL. In one
 * tenant, a support agent asks about a PostgreSQL restore; three PostgreSQL agents are similar enough to be routed to,
 * a Kubernetes agent is not, and an agent whose description the model cannot embed is skipped. The assembled context
 * carries the support agent's own warnings, then the two most relevant agents' warnings under
 * {@code [cross-domain: agent]} in decay order, each as many as the router says (relevance = similarity × 0.6); never
 * another tenant's agent, never another user's failures. The registry's REST rules close the test.
 */
class CrossDomainRouterIT {

    static final String QUERY = "restore the PostgreSQL database from the backup";

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void relatedAgentsWarningsFollowTheAgentsOwnInDecayOrderAndNeverAnotherTenants(Api server) {
        Api api = SkillsIT.tenant(server, "router");
        Api other = SkillsIT.tenant(server, "router-other");

        register(api, "support-agent", "Customer support for travel bookings: hotels, flights and cancellations");
        register(api, "backup-agent", "PostgreSQL database backups and restores");
        register(api, "replica-agent", "PostgreSQL replication and database restores");
        register(api, "dba-agent", "PostgreSQL database administration: backups, restores, replication");
        register(api, "k8s-agent", "Kubernetes cluster operations: deploying services, scaling pods and reading logs");
        JsonNode broken = register(api, "broken-agent", "\uFFFD\uFFFD\uFFFD");
        assertThat(broken.get("embedded").asBoolean())
                .as("a description the model cannot embed")
                .isFalse();
        register(other, "backup-agent", "PostgreSQL database backups and restores");

        failure(api, "support-agent", "alice", "Restoring a cancelled hotel booking failed", "Ask before restoring");
        for (String agent : List.of("backup-agent", "replica-agent", "dba-agent", "k8s-agent", "broken-agent")) {
            for (int i = 1; i <= 3; i++) {
                failure(
                        api,
                        agent,
                        "alice",
                        agent + " task " + i + " on the PostgreSQL database failed",
                        "Lesson " + i + " of " + agent);
            }
        }
        failure(api, "backup-agent", "bob", "Bob's PostgreSQL restore failed", "Lesson only bob's context shows");
        failure(other, "backup-agent", "alice", "Restore in the other tenant failed", "Lesson of the other tenant");
        Contexts.addTurns(
                api,
                "support-agent",
                "alice",
                "s1",
                List.of(obj("turnId", "t1", "userMessage", "My database is gone", "assistantResponse", "Looking.")));

        JsonNode routes = api.post("/agents/relevant", obj("agentId", "support-agent", "query", QUERY))
                .json()
                .get("agents");
        assertThat(texts(routes, "agentId")).containsExactly("backup-agent", "replica-agent");
        for (JsonNode r : routes) {
            assertThat(r.get("similarity").asDouble()).isGreaterThanOrEqualTo(0.5);
            assertThat(r.get("relevance").asDouble())
                    .isCloseTo(r.get("similarity").asDouble() * 0.6, within(1e-9));
            int expected = (int) Math.min(2, Math.ceil(r.get("relevance").asDouble() * 3));
            assertThat(r.get("warnings").asInt()).isEqualTo(expected);
        }
        assertThat(routes.get(0).get("relevance").asDouble())
                .isGreaterThan(routes.get(1).get("relevance").asDouble());

        String warnings =
                assemble(api, "support-agent", "alice").get("episodicWarnings").asText();
        String[] parts = warnings.split("\n\n");
        assertThat(parts[0]).startsWith("MISTAKES TO AVOID:").contains("Ask before restoring");
        assertThat(warnings.indexOf("[cross-domain: backup-agent]"))
                .isPositive()
                .isLessThan(warnings.indexOf("[cross-domain: replica-agent]"));
        for (JsonNode r : routes) {
            String block = block(warnings, r.get("agentId").asText());
            assertThat(block.lines().filter(l -> l.startsWith("- ")).count())
                    .as(block)
                    .isEqualTo(r.get("warnings").asLong());
            assertThat(block).contains("Lesson ").contains(r.get("agentId").asText() + " task");
        }
        assertThat(warnings)
                .doesNotContain("dba-agent", "k8s-agent", "broken-agent")
                .doesNotContain("Lesson only bob's context shows", "Lesson of the other tenant");

        // the other tenant's support agent sees its own tenant's backup agent only
        Contexts.addTurns(
                other,
                "support-agent",
                "alice",
                "s1",
                List.of(obj("turnId", "t1", "userMessage", "My database is gone", "assistantResponse", "Looking.")));
        String theirs = assemble(other, "support-agent", "alice")
                .get("episodicWarnings")
                .asText();
        assertThat(theirs).startsWith("[cross-domain: backup-agent]").contains("Lesson of the other tenant");
        assertThat(theirs).doesNotContain("Lesson 1 of backup-agent", "replica-agent");
        assertThat(texts(other.get("/agents").json().get("items"), "agentId")).containsExactly("backup-agent");

        // removing a registration stops the routing; the agent's own warnings are untouched
        assertThat(api.delete("/agents" + query("agentId", "backup-agent")).status())
                .isEqualTo(204);
        String after =
                assemble(api, "support-agent", "alice").get("episodicWarnings").asText();
        assertThat(after).startsWith(parts[0]).doesNotContain("[cross-domain: backup-agent]");
        assertThat(after.indexOf("[cross-domain: replica-agent]"))
                .isLessThan(after.indexOf("[cross-domain: dba-agent]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anAgentWhoseDescriptionCannotBeEmbeddedIsSkippedAndTheMainPathSurvives(Api server) {
        Api api = SkillsIT.tenant(server, "router-broken");
        register(api, "broken-agent", "\uFFFD\uFFFD\uFFFD");
        register(api, "backup-agent", "PostgreSQL database backups and restores");
        failure(api, "broken-agent", "alice", "Restore of the PostgreSQL database failed", "Broken agent's lesson");
        failure(api, "backup-agent", "alice", "Restore of the PostgreSQL database failed", "Backup agent's lesson");
        failure(api, "support-agent", "alice", "The refund was refused", "Own lesson");

        JsonNode assembled = assemble(api, "support-agent", "alice");
        String warnings = assembled.get("episodicWarnings").asText();
        assertThat(warnings).startsWith("MISTAKES TO AVOID:").contains("Own lesson");
        assertThat(warnings).contains("[cross-domain: backup-agent]").doesNotContain("broken-agent");
        assertThat(api.post("/agents/relevant", obj("agentId", "support-agent", "query", QUERY))
                        .json()
                        .get("agents"))
                .extracting(n -> n.get("agentId").asText())
                .containsExactly("backup-agent");
        // asked again: the failed embedding is remembered, the agent stays skipped
        assertThat(assemble(api, "support-agent", "alice")
                        .get("episodicWarnings")
                        .asText())
                .isEqualTo(warnings);
        JsonNode listed = api.get("/agents").json().get("items");
        assertThat(texts(listed, "agentId")).containsExactly("backup-agent", "broken-agent");
        assertThat(listed.get(1).get("embedded").asBoolean()).isFalse();

        // a new description is embedded and routed again
        JsonNode fixed = register(api, "broken-agent", "PostgreSQL database restores");
        assertThat(fixed.get("embedded").asBoolean()).isTrue();
        assertThat(assemble(api, "support-agent", "alice")
                        .get("episodicWarnings")
                        .asText())
                .contains("[cross-domain: broken-agent]", "Broken agent's lesson");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void theRegistryRefusesBadInputAndNarrowedTokens(Api server) {
        Api api = SkillsIT.tenant(server, "router-rules");
        String tenant = SkillsIT.tenantOf(api);
        JsonNode registered = register(api, "a/b \u00e9", null);
        assertThat(registered.get("domainDescription").isNull()).isTrue();
        assertThat(registered.get("embedded").asBoolean()).isFalse();
        JsonNode extract = api.put("/agents", obj("agentId", "a/b \u00e9", "skillAutoExtract", true))
                .json();
        assertThat(extract.get("skillAutoExtract").asBoolean()).isTrue();

        SkillsIT.assertProblem(api.put("/agents", obj("domainDescription", "x")), "agentId");
        SkillsIT.assertProblem(api.put("/agents", obj("agentId", "x", "domainDescription", "  ")), "domainDescription");
        SkillsIT.assertProblem(
                api.put("/agents", obj("agentId", "x", "domainDescription", "d".repeat(4001))), "domainDescription");
        SkillsIT.assertProblem(
                api.put("/agents", obj("agentId", "x", "domainDescription", "a\u0000b")), "domainDescription");
        SkillsIT.assertProblem(
                api.post("/agents/relevant", obj("agentId", "x", "query", "q", "maxWarnings", 0)), "maxWarnings");
        SkillsIT.assertProblem(api.get("/agents" + query("limit", "0")), "limit");
        assertThat(api.delete("/agents" + query("agentId", "never-registered")).status())
                .isEqualTo(404);

        Api writer = api.as(Tokens.of(api, tenant, List.of("memory-writer")).sign());
        assertThat(writer.put("/agents", obj("agentId", "x", "domainDescription", "d"))
                        .status())
                .isEqualTo(403);
        assertThat(writer.get("/agents").status()).isEqualTo(200);
        Api user = api.as(Tokens.of(api, tenant, List.of("memory-admin"))
                .withClaim("memory_user", "alice")
                .sign());
        assertThat(user.put("/agents", obj("agentId", "x", "domainDescription", "d"))
                        .status())
                .isEqualTo(403);
        assertThat(user.get("/agents").status()).isEqualTo(403);
        Api agent = api.as(Tokens.of(api, tenant, List.of("memory-admin"))
                .withClaim("memory_agent", "x")
                .sign());
        assertThat(agent.put("/agents", obj("agentId", "y", "domainDescription", "d"))
                        .status())
                .isEqualTo(403);
        assertThat(agent.put("/agents", obj("domainDescription", "PostgreSQL restores"))
                        .status())
                .isEqualTo(200);
        assertThat(texts(api.get("/agents").json().get("items"), "agentId")).containsExactly("a/b \u00e9", "x");
    }

    // ------------------------------------------------------------------------------------------ helpers

    static JsonNode register(Api api, String agent, String description) {
        Api.Response r = api.put("/agents", obj("agentId", agent, "domainDescription", description));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    static void failure(Api api, String agent, String user, String situation, String lesson) {
        Api.Response r = api.post(
                "/episodes",
                obj(
                        "namespace",
                        obj("agentId", agent, "userId", user),
                        "situation",
                        situation,
                        "actionTaken",
                        "Ran the usual procedure",
                        "outcome",
                        "failure",
                        "importance",
                        6,
                        "generateReflection",
                        false,
                        "lessonLearned",
                        lesson));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    static JsonNode assemble(Api api, String agent, String user) {
        Api.Response r = api.post(
                "/context/assemble",
                obj(
                        "userId",
                        user,
                        "sessionId",
                        "s1",
                        "chatbotId",
                        agent,
                        "query",
                        QUERY,
                        "config",
                        obj("maxContextTokens", 4000)));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    /** @return the text of one agent's cross-domain block, up to the next blank line */
    static String block(String warnings, String agent) {
        int start = warnings.indexOf("[cross-domain: " + agent + "]");
        assertThat(start).as(agent + " in " + warnings).isNotNegative();
        int end = warnings.indexOf("\n\n", start);
        return end < 0 ? warnings.substring(start) : warnings.substring(start, end);
    }

    static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(field).asText()));
        return out;
    }
}
