package org.agentmemory.it.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agentmemory.it.support.Api;

/**
 * What the benchmarks that reconfigure a test server between rounds share: its management CLI, waiting for it to
 * come back after a reload, and the median of their rounds.
 */
final class ServerCli {

    private ServerCli() {}

    /**
     * Runs one CLI command against a server.
     *
     * @param cli        the server's {@code bin/jboss-cli.sh}
     * @param controller {@code host:port} of its management interface
     * @param command    the command
     * @param mayFail    whether a failing command (e.g. reading a resource that may not exist) is an answer, not an
     *                   error
     * @return what the CLI printed
     */
    static String run(Path cli, String controller, String command, boolean mayFail) throws Exception {
        return org.agentmemory.it.support.ManagementCli.run(cli, controller, command, mayFail);
    }

    /** Waits (at most 3 minutes) until the server answers its API again after a reload. */
    static void awaitApi(Api api) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline) {
            try {
                if (api.get("/admin/reindex").status() == 200) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // reloading
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("the " + api.name() + " server did not come back after its reload");
    }

    /** @return the median of the rounds */
    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
