package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Turns;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link RedeployIT} on Open Liberty: the application restarted in a new class loader (its EAR in {@code apps/}
 * touched, which Liberty's polled application monitor takes for an update) still embeds new messages, and the
 * stopped application closed its embedding sessions. Runs in the
 * suite's Liberty execution only ({@code it.liberty}); the WildFly servers have {@link RedeployIT}.
 */
class LibertyRedeployIT {

    private static final String UPDATED = "CWWKZ0003I";

    @Test
    void aRestartedApplicationStillEmbedsMessages() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("it.liberty"), "Open Liberty only (the suite's liberty-rest run)");
        Api api = Api.postgres();
        String before = Turns.unique("liberty-redeploy-before");
        RedeployIT.appendAndAwaitVectors(api, before);

        long linkErrorsBefore = RedeployIT.linesInLog("UnsatisfiedLinkError");
        long updatesBefore = RedeployIT.linesInLog(UPDATED);
        long closesBefore = RedeployIT.linesInLog(RedeployIT.SESSIONS_CLOSED);
        long emptyClosesBefore = RedeployIT.linesInLog(RedeployIT.NO_SESSION_CLOSED);
        Path ear = Path.of(System.getProperty("it.liberty.ear"));
        Files.setLastModifiedTime(ear, FileTime.from(Instant.now()));
        awaitRestart(api, updatesBefore);
        RedeployIT.assertSessionsClosed(closesBefore, emptyClosesBefore);

        String after = Turns.unique("liberty-redeploy-after");
        RedeployIT.appendAndAwaitVectors(api, after);
        assertThat(RedeployIT.linesInLog("UnsatisfiedLinkError"))
                .as("UnsatisfiedLinkError lines in the server log since the restart")
                .isEqualTo(linkErrorsBefore);
    }

    /** Waits for Liberty's "application updated" message, then until the API answers again. */
    private static void awaitRestart(Api api, long updatesBefore) throws Exception {
        Instant deadline = Instant.now().plusSeconds(180);
        while (RedeployIT.linesInLog(UPDATED) == updatesBefore) {
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
}
