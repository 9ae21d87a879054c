package org.agentmemory.it.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.agentmemory.it.support.Api;

/**
 * What bearer-token verification costs a request end to end (issue 32's bench): REST {@code addTurn} throughput
 * (8 clients, as {@link ConversationBenchmark}) and {@code getHistory} p50 of a 1,000-turn conversation on the
 * PostgreSQL server, with {@code memory.security.mode=jwt} (the default: every request's token verified, a verified
 * token then kept until it expires) against {@code memory.security.mode=none} on the same server build. The modes
 * alternate on one server, their order swapped every pair: the mode is set as a server system property with the
 * server's CLI and the server reloaded; a lead-in round after each reload is not counted. The client sends the same
 * token in both modes, so the client's own cost is the same.
 *
 * <p>Run: {@code mvn -pl memory-it/suite -am verify -Pbenchmark -DskipTests -Dbench.conversation.skip=true
 * -Dbench.write.skip=true -Dbench.context.skip=true -Dbench.locomo.skip=true -Dbench.load.skip=true
 * -Dbench.h2.skip=true} ({@code -Dbench.security.pairs=3}, {@code -Dbench.security.turnsPerClient=500};
 * {@code -Dbench.security.skip=true} skips it).
 */
public final class SecurityCostBenchmark {

    private static final int HISTORY_TURNS = 1000;
    private static final int HISTORY_READS = 1000;

    private SecurityCostBenchmark() {}

    public static void main(String[] args) throws Exception {
        Api api = Api.postgres();
        HttpLoad.useToken(api.token());
        Path cli = Path.of(System.getProperty("it.pg.home"), "bin", "jboss-cli.sh");
        String controller =
                System.getProperty("it.pg.management", "http://localhost:10090").replace("http://", "");
        int pairs = Integer.getInteger("bench.security.pairs", 3);
        int perClient = Integer.getInteger("bench.security.turnsPerClient", 500);
        String run = Long.toString(System.currentTimeMillis(), 36);
        java.net.URL history = historyOf(api, "security-history-" + run);

        List<Double> writesJwt = new ArrayList<>();
        List<Double> writesNone = new ArrayList<>();
        List<Double> readsJwt = new ArrayList<>();
        List<Double> readsNone = new ArrayList<>();
        try {
            for (int pair = 1; pair <= pairs; pair++) {
                boolean[] order = pair % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true};
                for (boolean verify : order) {
                    mode(cli, controller, verify);
                    ServerCli.awaitApi(api);
                    String mode = verify ? "jwt" : "none";
                    ConversationBenchmark.runRest(api, "sec-" + mode + "-lead-" + pair + "-" + run, perClient / 5);
                    ConversationBenchmark.readTimes(history, HISTORY_READS / 5);
                    double rate = ConversationBenchmark.runRest(api, "sec-" + mode + "-" + pair + "-" + run, perClient);
                    long[] times = ConversationBenchmark.readTimes(history, HISTORY_READS);
                    double p50 = times[HISTORY_READS / 2] / 1e6;
                    (verify ? writesJwt : writesNone).add(rate);
                    (verify ? readsJwt : readsNone).add(p50);
                    System.out.printf(
                            Locale.ROOT,
                            "pair %d, mode %s: addTurn %.0f turns/s, getHistory p50 %.2f ms%n",
                            pair,
                            mode,
                            rate,
                            p50);
                }
            }
        } finally {
            // Leave the server as configured: tokens verified.
            mode(cli, controller, true);
            ServerCli.awaitApi(api);
        }
        double jwt = ServerCli.median(writesJwt);
        double none = ServerCli.median(writesNone);
        System.out.printf(
                Locale.ROOT,
                "Security cost, PostgreSQL server, 8 clients: addTurn median %.0f turns/s with tokens %s, %.0f without %s"
                        + " (%.1f %% fewer); getHistory (1,000 turns) p50 median %.2f ms with tokens %s, %.2f ms without"
                        + " %s (%+.0f µs per read)%n",
                jwt,
                writesJwt,
                none,
                writesNone,
                100 * (none - jwt) / none,
                ServerCli.median(readsJwt),
                readsJwt,
                ServerCli.median(readsNone),
                readsNone,
                (ServerCli.median(readsJwt) - ServerCli.median(readsNone)) * 1000);
    }

    /** Imports a 1,000-turn conversation and answers the URL of its history. */
    private static java.net.URL historyOf(Api api, String userId) throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < HISTORY_TURNS; i++) {
            body.append(Api.JSON.writeValueAsString(Api.obj(
                            "key",
                            Api.obj("userId", userId, "sessionId", "s"),
                            "turn",
                            Api.obj(
                                    "turnId",
                                    "t" + i,
                                    "userMessage",
                                    "question " + i,
                                    "assistantResponse",
                                    "answer " + i))))
                    .append('\n');
        }
        api.postRaw("/import", body.toString(), "application/x-ndjson");
        long id = api.get("/conversations/lookup" + Api.query("userId", userId, "sessionId", "s"))
                .json()
                .get("conversationId")
                .asLong();
        return api.uri("/conversations/" + id).toURL();
    }

    private static void mode(Path cli, String controller, boolean verify) throws Exception {
        String read = ServerCli.run(cli, controller, "/system-property=memory.security.mode:read-resource", true);
        boolean present = read.contains("\"outcome\" => \"success\"");
        if (present) {
            ServerCli.run(cli, controller, "/system-property=memory.security.mode:remove", false);
        }
        if (!verify) {
            ServerCli.run(cli, controller, "/system-property=memory.security.mode:add(value=none)", false);
        }
        ServerCli.run(cli, controller, ":reload", false);
    }
}
