package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Embeddings;
import org.agentmemory.it.support.Turns;
import org.junit.jupiter.api.Test;

/**
 * The EAR redeployed on a running server (a new class loader, as WildFly's {@code deploy --force} or the deployment
 * scanner make one) still embeds. The native library of DJL's tokenizer loads into one class loader per file, and
 * DJL keeps it at one fixed path: while DJL was bundled in the EAR, the redeployed EAR failed with
 * {@code UnsatisfiedLinkError: … already loaded in another classloader} and stored every message and episode
 * without a vector until the server restarted (a per-deployment copy of the library worked around it). Now the
 * embedding runtime is the WildFly module {@code org.agentmemory.embedding} (decision 0022): its natives load once
 * per server, into the module's class loader, which a redeploy keeps; the undeployed application closes its own
 * ONNX Runtime sessions (EmbeddingSessionsBean). PostgreSQL server only: the redeploy is the same on both.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it redeploys through WildFly's CLI; {@link LibertyRedeployIT} is its Liberty counterpart.
 */
class RedeployIT {

    private static final Duration EMBEDDED_WITHIN = Duration.ofSeconds(90);

    @Test
    void aRedeployedApplicationStillEmbedsMessages() throws Exception {
        Api api = Api.postgres();
        String before = Turns.unique("redeploy-before");
        appendAndAwaitVectors(api, before);

        long linkErrorsBefore = linesInLog("UnsatisfiedLinkError");
        long closesBefore = linesInLog(SESSIONS_CLOSED);
        long emptyClosesBefore = linesInLog(NO_SESSION_CLOSED);
        redeploy(api);
        assertSessionsClosed(closesBefore, emptyClosesBefore);

        String after = Turns.unique("redeploy-after");
        appendAndAwaitVectors(api, after);
        assertThat(linesInLog("UnsatisfiedLinkError"))
                .as("UnsatisfiedLinkError lines in the server log since the redeploy")
                .isEqualTo(linkErrorsBefore);
    }

    /** The log line of EmbeddingSessionsBean when an application stops. */
    static final String SESSIONS_CLOSED = "embedding model session(s) of this deployment";

    static final String NO_SESSION_CLOSED = "Closed 0 " + SESSIONS_CLOSED;

    /**
     * The stopped application closed its ONNX Runtime sessions (they hold the models' weights in native memory, which
     * would otherwise stay allocated for the rest of the JVM), at least one, as it had embedded (also used by
     * LibertyRedeployIT).
     */
    static void assertSessionsClosed(long closesBefore, long emptyClosesBefore) throws Exception {
        assertThat(linesInLog(SESSIONS_CLOSED))
                .as("'Closed N %s' lines since the redeploy", SESSIONS_CLOSED)
                .isGreaterThan(closesBefore);
        assertThat(linesInLog(NO_SESSION_CLOSED))
                .as("the stopped application had sessions to close")
                .isEqualTo(emptyClosesBefore);
    }

    /** Appends a turn for {@code user} and waits until its messages have vectors (also used by LibertyRedeployIT). */
    static void appendAndAwaitVectors(Api api, String user) {
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

    /** Redeploys agent-memory.ear with the server's own CLI (local authentication), then waits until it is ready. */
    private static void redeploy(Api api) throws Exception {
        Path home = Path.of(System.getProperty("it.pg.home"));
        URI management = URI.create(api.management());
        Path cli = home.resolve("bin").resolve("jboss-cli.sh");
        Process p = new ProcessBuilder(List.of(
                        "bash",
                        cli.toString(),
                        "--controller=" + management.getHost() + ":" + management.getPort(),
                        "--connect",
                        "--command=/deployment=agent-memory.ear:redeploy"))
                .redirectErrorStream(true)
                .start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the CLI finished").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("\"outcome\" => \"success\"");
        Instant deadline = Instant.now().plusSeconds(120);
        while (true) {
            Api.Response ready = api.send(HttpRequest.newBuilder(URI.create(api.management() + "/health/ready"))
                    .GET());
            if (ready.status() == 200
                    && api.get("/conversations/lookup" + Api.query("userId", "nobody", "sessionId", "s"))
                                    .status()
                            == 404) {
                return;
            }
            assertThat(Instant.now()).as("ready again after the redeploy").isBefore(deadline);
            Thread.sleep(250);
        }
    }

    /** @return the lines of the server log ({@code it.pg.log}) that contain {@code text} (also used by LibertyRedeployIT) */
    static long linesInLog(String text) throws Exception {
        Path log = Path.of(System.getProperty("it.pg.log"));
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> l.contains(text)).count();
        }
    }
}
