package org.agentmemory.it.bench;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Suspends and resumes the WildFly server under test with its own CLI (local authentication, as
 * {@code RedeployIT} redeploys): a suspended server takes no requests and fires no EJB timers until it is resumed
 * (WildFly's graceful suspend), so the service's background work driven by timers, above all the embedder of
 * conversation messages, pauses. {@link ConversationBenchmark} suspends the server for each round of its plain-JDBC
 * ceiling, which it measures in turn with the REST rounds: a ceiling measured while the server embeds the REST
 * rounds' messages on the same cores would be too low.
 */
final class ServerSuspension {

    private final Path cli;
    private final URI management;

    private ServerSuspension(Path cli, URI management) {
        this.cli = cli;
        this.management = management;
    }

    /**
     * @param home       the server's directory ({@code -Dit.pg.home}), or {@code null}
     * @param management its management address, e.g. {@code http://localhost:10090}
     * @return the suspension, or {@code null} when there is no server directory with a CLI to run
     */
    static ServerSuspension of(String home, String management) {
        if (home == null || home.isBlank()) {
            return null;
        }
        Path cli = Path.of(home, "bin", "jboss-cli.sh");
        return Files.isRegularFile(cli) ? new ServerSuspension(cli, URI.create(management)) : null;
    }

    /** Suspends the server, waiting up to 60 s for the requests in progress to end. */
    void suspend() throws Exception {
        run(":suspend(suspend-timeout=60)");
        String state = run(":read-attribute(name=suspend-state)");
        if (!state.contains("SUSPENDED")) {
            throw new IllegalStateException("The server did not suspend: " + state);
        }
    }

    /** Resumes the server: it takes requests again, and the timers that were due fire. */
    void resume() throws Exception {
        run(":resume");
    }

    private String run(String command) throws Exception {
        Process p = new ProcessBuilder(List.of(
                        "bash",
                        cli.toString(),
                        "--controller=" + management.getHost() + ":" + management.getPort(),
                        "--connect",
                        "--command=" + command))
                .redirectErrorStream(true)
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("The CLI did not finish within 120 s: " + command);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0 || !out.contains("\"outcome\" => \"success\"")) {
            throw new IllegalStateException("The CLI failed (" + p.exitValue() + ") on " + command + ": " + out);
        }
        return out;
    }
}
