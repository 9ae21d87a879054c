package org.agentmemory.it.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
                ServerCli.run(
                        cli,
                        controller,
                        "/subsystem=datasources/data-source=MemoryDS:write-attribute(name=connection-url," + "value=\""
                                + url + "\")",
                        false);
                ServerCli.run(cli, controller, ":reload", false);
                ServerCli.awaitApi(api);
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
        ServerCli.run(
                cli,
                controller,
                "/subsystem=datasources/data-source=MemoryDS:write-attribute(name=connection-url,value=\"" + URL
                        + ";WRITE_DELAY=0\")",
                false);
        ServerCli.run(cli, controller, ":reload", false);
        ServerCli.awaitApi(api);
        System.out.printf(
                Locale.ROOT,
                "H2 REST addTurn, 8 clients: WRITE_DELAY=0 (durable) median %.0f turns/s %s;"
                        + " WRITE_DELAY=500 (H2's default) median %.0f turns/s %s; durable / delayed = %.0f %%%n",
                ServerCli.median(durable),
                durable,
                ServerCli.median(delayed),
                delayed,
                100 * ServerCli.median(durable) / ServerCli.median(delayed));
    }
}
