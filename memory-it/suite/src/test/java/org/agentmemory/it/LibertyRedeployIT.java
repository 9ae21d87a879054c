package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Embeddings;
import org.agentmemory.it.support.Turns;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link RedeployIT} on Open Liberty: the application restarted in a new class loader (its EAR in {@code apps/}
 * touched, which Liberty's polled application monitor takes for an update) still embeds new messages. Runs in the
 * suite's Liberty execution only ({@code it.liberty}); the WildFly servers have {@link RedeployIT}.
 */
class LibertyRedeployIT {

    private static final Duration EMBEDDED_WITHIN = Duration.ofSeconds(90);

    private static final String UPDATED = "CWWKZ0003I";

    @Test
    void aRestartedApplicationStillEmbedsMessages() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("it.liberty"), "Open Liberty only (the suite's liberty-rest run)");
        Api api = Api.postgres();
        String before = Turns.unique("liberty-redeploy-before");
        appendAndAwaitVectors(api, before);

        long linkErrorsBefore = linesInLog("UnsatisfiedLinkError");
        long updatesBefore = linesInLog(UPDATED);
        Path ear = Path.of(System.getProperty("it.liberty.ear"));
        Files.setLastModifiedTime(ear, FileTime.from(Instant.now()));
        awaitRestart(api, updatesBefore);

        String after = Turns.unique("liberty-redeploy-after");
        appendAndAwaitVectors(api, after);
        assertThat(linesInLog("UnsatisfiedLinkError"))
                .as("UnsatisfiedLinkError lines in the server log since the restart")
                .isEqualTo(linkErrorsBefore);
    }

    private static void appendAndAwaitVectors(Api api, String user) {
        Api.Response r = api.post(
                "/turns",
                Api.obj(
                        "userId",
                        user,
                        "sessionId",
                        "s",
                        "turn",
                        Api.obj(
                                "userMessage", "Where is the runbook for the payments service?",
                                "assistantResponse", "It is in the operations wiki under Payments.")));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        Embeddings.awaitVectors(api, Api.query("userId", user), EMBEDDED_WITHIN);
    }

    /** Waits for Liberty's "application updated" message, then until the API answers again. */
    private static void awaitRestart(Api api, long updatesBefore) throws Exception {
        Instant deadline = Instant.now().plusSeconds(180);
        while (linesInLog(UPDATED) == updatesBefore) {
            assertThat(Instant.now()).as("Liberty restarted the application").isBefore(deadline);
            Thread.sleep(250);
        }
        while (true) {
            Api.Response ready = api.send(HttpRequest.newBuilder(URI.create(api.management() + "/health/ready"))
                    .GET());
            if (ready.status() == 200
                    && api.get("/conversations/lookup" + Api.query("userId", "nobody", "sessionId", "s"))
                                    .status()
                            == 404) {
                return;
            }
            assertThat(Instant.now()).as("ready again after the restart").isBefore(deadline);
            Thread.sleep(250);
        }
    }

    private static long linesInLog(String text) throws Exception {
        Path log = Path.of(System.getProperty("it.pg.log"));
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> l.contains(text)).count();
        }
    }
}
