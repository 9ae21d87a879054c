package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The audit trail (issue 32 item 5): exports, deletions, imports, reindex and a refused admin operation leave rows
 * with tenant, caller, operation, target ids and outcome, never message content; a tenant's admin reads only its
 * tenant's rows, paged; failed authentications appear as one row per minute with their count for an operator.
 */
class AuditIT {

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void securityRelevantOperationsLeaveRowsWithoutContent(Api server) throws InterruptedException {
        String run = unique("audit");
        String tenant = "tenant-" + run;
        String secret = "wombat" + run.replaceAll("[^a-z0-9]", "");
        // Three failed authentications first: their minute's row is written once the minute has ended.
        for (int i = 0; i < 3; i++) {
            assertThat(server.as("not-a-token-" + i).get("/conversations/1").status())
                    .isEqualTo(401);
        }
        Api admin = server.as(Tokens.of(server, tenant, List.of("memory-admin"))
                .withSubject("auditor-" + run)
                .sign());
        Api writer =
                server.as(Tokens.of(server, tenant, List.of("memory-writer")).sign());

        Api.Response turn = admin.post(
                "/turns", addTurn("bot", "u1", "s1", obj("turnId", "t1", "userMessage", "the word is " + secret)));
        assertThat(turn.status()).isEqualTo(201);
        long id = turn.json().get("conversationId").asLong();
        assertThat(admin.get("/conversations/" + id + "/export").body()).contains(secret);
        assertThat(admin.get("/export" + query("userId", "u1")).body()).contains(secret);
        String line = "{\"key\":{\"userId\":\"u2\",\"sessionId\":\"s1\"},\"turn\":{\"turnId\":\"t1\",\"userMessage\":\""
                + secret + "\"}}\n";
        assertThat(admin.postRaw("/import", line, "application/x-ndjson").status())
                .isEqualTo(200);
        assertThat(admin.post("/admin/reindex", "").status()).isEqualTo(202);
        assertThat(writer.post("/admin/reindex", "").status())
                .as("refused: no admin role")
                .isEqualTo(403);
        assertThat(admin.delete("/conversations/" + id).status()).isIn(200, 204);

        List<JsonNode> rows = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = admin.get(
                            "/admin/audit" + query("limit", "2") + (cursor == null ? "" : "&cursor=" + cursor))
                    .json();
            page.path("items").forEach(rows::add);
            cursor = page.path("nextCursor").isNull()
                    ? null
                    : page.path("nextCursor").asText();
        } while (cursor != null);
        String all = rows.toString();
        System.out.printf(Locale.ROOT, "[audit %s] %d rows for the tenant: %s%n", server.name(), rows.size(), all);

        assertThat(all).as("never message content").doesNotContain(secret);
        assertThat(rows).allSatisfy(r -> assertThat(r.path("tenantId").asText()).isEqualTo(tenant));
        JsonNode export = row(rows, "conversation.export");
        assertThat(export.path("target").asText()).isEqualTo("id=" + id);
        assertThat(export.path("outcome").asInt()).isEqualTo(200);
        assertThat(export.path("caller").asText()).isEqualTo("auditor-" + run);
        assertThat(row(rows, "export").path("target").asText()).isEqualTo("userId=u1");
        assertThat(row(rows, "import").path("outcome").asInt()).isEqualTo(200);
        assertThat(row(rows, "conversation.delete").path("target").asText()).isEqualTo("id=" + id);
        assertThat(rows.stream()
                        .filter(r -> r.path("operation").asText().equals("reindex"))
                        .map(r -> r.path("outcome").asInt())
                        .toList())
                .containsExactlyInAnyOrder(202, 403);
        assertThat(rows.get(0).path("id").asLong())
                .as("newest first")
                .isGreaterThan(rows.get(rows.size() - 1).path("id").asLong());

        Api otherAdmin = server.as(
                Tokens.of(server, "other-" + run, List.of("memory-admin")).sign());
        assertThat(otherAdmin.get("/admin/audit").body()).doesNotContain(tenant);
        assertThat(writer.get("/admin/audit").status()).isEqualTo(403);

        // An operator (the development token has every role) sees the failed authentications, aggregated.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
        int failed = 0;
        while (failed < 3 && System.nanoTime() < deadline) {
            failed = 0;
            for (JsonNode r :
                    server.get("/admin/audit" + query("limit", "1000")).json().path("items")) {
                if (r.path("operation").asText().equals("authentication.failed")) {
                    assertThat(r.path("tenantId").asText()).isEqualTo("-");
                    assertThat(r.path("outcome").asInt()).isEqualTo(401);
                    failed += r.path("count").asInt();
                }
            }
            if (failed < 3) {
                Thread.sleep(2000);
            }
        }
        assertThat(failed).as("failed authentications counted").isGreaterThanOrEqualTo(3);
    }

    private static JsonNode row(List<JsonNode> rows, String operation) {
        return rows.stream()
                .filter(r -> r.path("operation").asText().equals(operation))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + operation + " row in " + rows));
    }
}
