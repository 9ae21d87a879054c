package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.KillableServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Right to erasure reaches PII threads kept in another server's process (issue 34 item 4): a second server (the crash
 * test's PostgreSQL home) on the suite's database keeps its threads in process ({@code memory.pii.store=memory}), with
 * the suite's pepper; the suite's server answers the erasure. The second server must not serve a thread it held before
 * the erasure, must keep what the user says after it, and must drop the erased user's untouched threads from memory
 * at its next poll of recent erasures.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it starts and kills a WildFly server of its own.
 */
class PiiInProcessErasureIT {

    private static KillableServer server;

    @AfterAll
    static void stopAndForget() {
        if (server != null) {
            server.kill();
            DreamTimersIT.deleteTree(server.dataDirectory());
        }
    }

    @Test
    void anErasureOnOneServerEmptiesAnotherServersInProcessThreads() throws Exception {
        server = KillableServer.onSuiteDatabase("pg-pii-memory", "memory");
        System.out.println(
                "[pii] in-process server on the suite's database started in " + server.start(Duration.ofMinutes(4)));
        Api inProcess = server.api();
        Api answering = Api.postgres();
        String user = unique("pii-mem");
        String spoken = unique("thread");
        String untouched = unique("thread");
        for (String thread : new String[] {spoken, untouched}) {
            assertThat(ok(inProcess.post(
                                    "/pii/anonymize",
                                    obj(
                                            "threadId",
                                            thread,
                                            "userId",
                                            user,
                                            "messageId",
                                            "m1",
                                            "text",
                                            "Mail ann.before@example.com")))
                            .get("text")
                            .asText())
                    .isEqualTo("Mail <<EMAIL_1>>");
        }
        assertThat(restore(inProcess, user, spoken)).isEqualTo("to ann.before@example.com");
        // the answering server keeps its threads in the database: it has none of this user's
        assertThat(ok(answering.get("/pii/detections" + query("threadId", spoken, "userId", user)))
                        .get("detections"))
                .isEmpty();
        Path console = server.consoleLog();
        long logBefore = Files.size(console);

        ok(answering.post("/erasures", obj("userId", user)));

        // not served any more, on the very next request
        assertThat(ok(inProcess.get("/pii/detections" + query("threadId", spoken, "userId", user)))
                        .get("detections"))
                .isEmpty();
        assertThat(restore(inProcess, user, spoken)).isEqualTo("to <<EMAIL_1>>");
        // what the user says after the erasure is numbered afresh and kept
        assertThat(ok(inProcess.post(
                                "/pii/anonymize",
                                obj(
                                        "threadId",
                                        spoken,
                                        "userId",
                                        user,
                                        "messageId",
                                        "m2",
                                        "text",
                                        "Mail zed.after@example.com")))
                        .get("text")
                        .asText())
                .isEqualTo("Mail <<EMAIL_1>>");
        assertThat(restore(inProcess, user, spoken)).isEqualTo("to zed.after@example.com");

        // the untouched thread leaves the second server's memory at its next poll (every 30 seconds)
        Instant deadline = Instant.now().plusSeconds(75);
        String dropped = "";
        while (Instant.now().isBefore(deadline) && !dropped.contains("in-process PII threads of users erased")) {
            Thread.sleep(1_000);
            dropped = tail(console, logBefore);
        }
        assertThat(dropped).contains("Dropped 1 in-process PII threads of users erased on any server");
        assertThat(ok(inProcess.get("/pii/detections" + query("threadId", untouched, "userId", user)))
                        .get("detections"))
                .isEmpty();
        assertThat(restore(inProcess, user, spoken)).as("kept after the poll").isEqualTo("to zed.after@example.com");
    }

    private static String restore(Api api, String user, String thread) {
        return ok(api.post("/pii/deanonymize", obj("threadId", thread, "userId", user, "text", "to <<EMAIL_1>>")))
                .get("text")
                .asText();
    }

    private static String tail(Path file, long from) throws java.io.IOException {
        byte[] all = Files.readAllBytes(file);
        return from >= all.length ? "" : new String(all, (int) from, all.length - (int) from, StandardCharsets.UTF_8);
    }

    private static JsonNode ok(Api.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }
}
