package org.agentmemory.it.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.agentmemory.it.support.Api;

/**
 * What durable commits cost on the embedded H2 default: REST {@code addTurn} (8 clients, each appending to its own
 * conversation, as {@link ConversationBenchmark} does) on the H2 server with {@code WRITE_DELAY=0} (every commit
 * written to the file before it returns, the configured default) against H2's own default of 500 ms (commits written
 * up to half a second later, which loses acknowledged turns in a crash). The modes alternate on one server: the
 * datasource URL is rewritten with the server's CLI and the server reloaded before each round, so both modes see the
 * same machine; a lead-in round after each reload is not counted.
 *
 * <p>Run: {@code mvn -pl memory-it/suite -am verify -Pbenchmark -DskipTests -Dbench.conversation.skip=true
 * -Dbench.write.skip=true -Dbench.context.skip=true -Dbench.locomo.skip=true -Dbench.load.skip=true}
 * ({@code -Dbench.h2.pairs=3}, {@code -Dbench.h2.turnsPerClient=500}).
 */
public final class H2CommitBenchmark {

    private static final String URL =
            "jdbc:h2:${jboss.server.data.dir}/agent-memory/memory;DB_CLOSE_ON_EXIT=FALSE;" + "LOCK_TIMEOUT=10000";

    private H2CommitBenchmark() {}

    public static void main(String[] args) throws Exception {
        Api api = Api.h2();
        Path cli = Path.of(System.getProperty("it.h2.home"), "bin", "jboss-cli.sh");
        String controller =
                System.getProperty("it.h2.management", "http://localhost:10190").replace("http://", "");
        int pairs = Integer.getInteger("bench.h2.pairs", 3);
        int perClient = Integer.getInteger("bench.h2.turnsPerClient", 500);
        List<Double> durable = new ArrayList<>();
        List<Double> delayed = new ArrayList<>();
        for (int pair = 1; pair <= pairs; pair++) {
            for (boolean writeThrough : new boolean[] {false, true}) {
                String url = writeThrough ? URL + ";WRITE_DELAY=0" : URL;
                cli(
                        cli,
                        controller,
                        "/subsystem=datasources/data-source=MemoryDS:write-attribute(name=connection-url," + "value=\""
                                + url + "\")");
                cli(cli, controller, ":reload");
                awaitApi(api);
                String mode = writeThrough ? "durable" : "delayed";
                ConversationBenchmark.runRest(
                        api, "h2-" + mode + "-lead-" + pair + "-" + System.nanoTime(), perClient / 5);
                double rate = ConversationBenchmark.runRest(
                        api, "h2-" + mode + "-" + pair + "-" + System.nanoTime(), perClient);
                (writeThrough ? durable : delayed).add(rate);
                System.out.printf(Locale.ROOT, "H2 addTurn pair %d, %s commits: %.0f turns/s%n", pair, mode, rate);
            }
        }
        // Leave the server as configured: durable.
        cli(
                cli,
                controller,
                "/subsystem=datasources/data-source=MemoryDS:write-attribute(name=connection-url,value=\"" + URL
                        + ";WRITE_DELAY=0\")");
        cli(cli, controller, ":reload");
        awaitApi(api);
        System.out.printf(
                Locale.ROOT,
                "H2 REST addTurn, 8 clients: WRITE_DELAY=0 (durable) median %.0f turns/s %s;"
                        + " WRITE_DELAY=500 (H2's default) median %.0f turns/s %s; durable / delayed = %.0f %%%n",
                median(durable),
                durable,
                median(delayed),
                delayed,
                100 * median(durable) / median(delayed));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static void awaitApi(Api api) throws InterruptedException {
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
        throw new IllegalStateException("the H2 server did not come back after its reload");
    }

    private static void cli(Path cli, String controller, String command) throws Exception {
        Process p = new ProcessBuilder(List.of(
                        "bash", cli.toString(), "--controller=" + controller, "--connect", "--command=" + command))
                .redirectErrorStream(true)
                .start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("The CLI did not finish: " + command);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IllegalStateException("The CLI failed (" + p.exitValue() + ") on " + command + ": " + out);
        }
    }
}
