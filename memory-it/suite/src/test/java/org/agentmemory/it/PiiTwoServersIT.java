package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.KillableServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * PII threads on the durable store across two WildFly servers sharing one PostgreSQL database (issue 34 item 3): the
 * suite's PostgreSQL server and a second server (the crash test's server home, started and killed here) with the same
 * pepper and key. A thread's turns alternate between the servers, and each value keeps the one placeholder it got on
 * whichever server saw it first; either server restores the other's placeholders; and an erasure on one server leaves
 * nothing for the other to restore.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it needs two servers on one database.
 */
class PiiTwoServersIT {

    private static KillableServer server;

    @AfterAll
    static void stopAndForget() {
        if (server != null) {
            server.kill();
            DreamTimersIT.deleteTree(server.dataDirectory());
        }
    }

    @Test
    void placeholdersAreStableAcrossTwoServersAndErasureReachesBoth() throws Exception {
        server = KillableServer.onSuiteDatabase("pg-pii", "durable");
        System.out.println(
                "[pii] second server on the suite's database started in " + server.start(Duration.ofMinutes(4)));
        List<Api> servers = List.of(Api.postgres(), server.api());
        String user = unique("pii-two");
        String thread = unique("thread");
        List<String> emails = List.of("ann.one@example.com", "bob.two@example.org", "cy.three@example.net");

        for (int turn = 0; turn < 20; turn++) {
            Api api = servers.get(turn % 2);
            String first = emails.get(turn % emails.size());
            String second = emails.get((turn + 1) % emails.size());
            String text = "Write to " + first + " and copy " + second;
            JsonNode anonymized = ok(api.post(
                    "/pii/anonymize", obj("threadId", thread, "userId", user, "messageId", "m" + turn, "text", text)));
            // Numbered on first sight: ann (turn 0), bob (turn 0), cy (turn 1), whichever server numbered them.
            assertThat(anonymized.get("text").asText())
                    .as("turn %d on server %d", turn, turn % 2)
                    .isEqualTo("Write to " + placeholder(first, emails) + " and copy " + placeholder(second, emails));
            Api other = servers.get((turn + 1) % 2);
            JsonNode restored = ok(other.post(
                    "/pii/deanonymize",
                    obj(
                            "threadId",
                            thread,
                            "userId",
                            user,
                            "text",
                            anonymized.get("text").asText())));
            assertThat(restored.get("text").asText())
                    .as("restored on the other server")
                    .isEqualTo(text);
        }

        JsonNode erased = ok(servers.get(1).post("/erasures", obj("userId", user)));
        assertThat(erased.get("piiThreads").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(erased.get("piiDetections").asLong()).isEqualTo(40);
        for (Api api : servers) {
            assertThat(ok(api.get("/pii/detections" + query("threadId", thread, "userId", user)))
                            .get("detections"))
                    .isEmpty();
            assertThat(ok(api.post(
                                    "/pii/deanonymize",
                                    obj("threadId", thread, "userId", user, "text", "to <<EMAIL_1>>")))
                            .get("text")
                            .asText())
                    .isEqualTo("to <<EMAIL_1>>");
        }
    }

    private static String placeholder(String email, List<String> emails) {
        return "<<EMAIL_" + (emails.indexOf(email) + 1) + ">>";
    }

    private static JsonNode ok(Api.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }
}
