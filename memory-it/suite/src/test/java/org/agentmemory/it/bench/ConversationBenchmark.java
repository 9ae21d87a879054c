package org.agentmemory.it.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentmemory.it.support.Api;

/**
 * Conversation write and read benchmark on a running server backed by PostgreSQL (issue 2). Prints a
 * report; never asserts. Measures, in one run against the same database, in this order:
 * <ol>
 *   <li>the ceiling: a plain-JDBC loop inserting the same rows the same way (lock the conversation row,
 *       check the turn id, insert the turn, its invocation and its two message rows, update the conversation,
 *       commit) with 8 threads, turns/s;</li>
 *   <li>{@code addTurn} through REST with 8 concurrent clients (each its own conversation), turns/s;</li>
 *   <li>{@code POST /import} of 20,000 JSONL turns, turns/s;</li>
 *   <li>{@code GET /conversations/{id}} of a 1,000-turn conversation, latency p50/p99 over 1,000 reads after
 *       warm-up rounds of 100 reads until the median is steady.</li>
 * </ol>
 * Each write phase measures a steady state: it is first run in warm-up rounds of the same work (REST and JDBC:
 * {@code -Dbench.warmupPerClient}, default 1,000 turns per client; import: {@code -Dbench.importWarmupTurns}, default
 * 20,000 turns, as many as are measured) until the mean rate of the last {@value #STEADY_WINDOW} rounds is
 * within {@value #STEADY_PERCENT} % of the mean of the {@value #STEADY_WINDOW} before them, after at least
 * {@value #WARMUP_MIN_ROUNDS} and at most
 * {@code -Dbench.warmupMaxRounds} (default {@value #WARMUP_MAX_ROUNDS_DEFAULT}) rounds, and not in a round in which
 * the server's JIT compiler threads used more than {@value #JIT_QUIET_CORES} of a core: the compiler needs tens of
 * thousands of calls through WildFly's deep stacks, minutes on 2 cores, before it is done, and a cold phase measures
 * the compiler, not the service. The report lists every warm-up round's rate. Then {@code -Dbench.measuredRounds}
 * (default {@value #MEASURED_ROUNDS_DEFAULT}) rounds of {@code -Dbench.turnsPerClient} (default 1,000) turns per
 * client, or 20,000 imported turns, are measured and their median reported with every round's rate (on this 2-core
 * machine single rounds vary by ±20 %: Lucene merges, checkpoints, the embedder), and on Linux the report adds the
 * milliseconds of CPU the server, PostgreSQL and this program spent per turn, and the server's split by what its
 * threads do: requests, background embedder, indexing, I/O, JIT, GC ({@link ProcessCpu}). The ceiling and REST are
 * warmed up one after the other but measured in turn, a ceiling round then a REST round, each ceiling round with
 * the server suspended ({@link #measureInTurn}), so that both see the machine in the same state; the report gives
 * each pair's ratio.
 * Run (starts the PostgreSQL WildFly of the integration tests, runs this, stops it):
 * {@code mvn -pl memory-it/suite -am verify -Pbenchmark -DskipTests}
 */
public final class ConversationBenchmark {

    private static final int CLIENTS = 8;
    private static final int TURNS_PER_CLIENT = Integer.getInteger("bench.turnsPerClient", 1000);
    private static final int WARMUP_PER_CLIENT = Integer.getInteger("bench.warmupPerClient", 1000);
    private static final int WARMUP_MIN_ROUNDS = 6;
    private static final int WARMUP_MAX_ROUNDS_DEFAULT = 20;
    private static final int WARMUP_MAX_ROUNDS = Integer.getInteger("bench.warmupMaxRounds", WARMUP_MAX_ROUNDS_DEFAULT);
    private static final int WARMUP_MIN_ROUNDS_USED = Math.min(WARMUP_MIN_ROUNDS, WARMUP_MAX_ROUNDS);
    private static final int STEADY_PERCENT = 5;
    /**
     * The most of one core the server's JIT compiler may use in a round that ends the warm-up: the compiler still
     * works through WildFly's deep stacks minutes into a phase (measured: 0.4–0.6 of a core for the first 2–3
     * minutes of the REST phase on 2 cores), and a round it shares the cores with measures the compiler.
     */
    private static final double JIT_QUIET_CORES = 0.05;

    private static final int STEADY_WINDOW = 3;
    private static final int MEASURED_ROUNDS_DEFAULT = 5;
    private static final int MEASURED_ROUNDS =
            Math.max(1, Integer.getInteger("bench.measuredRounds", MEASURED_ROUNDS_DEFAULT));
    private static final int IMPORT_TURNS = 20_000;
    private static final int IMPORT_WARMUP_TURNS = Integer.getInteger("bench.importWarmupTurns", IMPORT_TURNS);
    private static final int HISTORY_ROUND = 100;
    private static final int HISTORY_MIN_ROUNDS = 6;
    private static final int HISTORY_MAX_ROUNDS = 20;
    private static final int HISTORY_READS = 1000;
    private static final String USER_TEXT =
            "Can you check the deployment logs for the payment service and tell me why the"
                    + " last rollout failed? It started around 10:40 and the pods keep restarting.";
    private static final String ASSISTANT_TEXT = "The rollout failed because the new pods could not reach the database:"
            + " the readiness probe timed out after 30 s on every replica. The logs show 'connection refused' from"
            + " the connection pool at startup. The previous version still runs, so traffic is unaffected. I suggest"
            + " checking the new network policy that came with this release; it does not allow egress to port 5432.";

    private ConversationBenchmark() {}

    public static void main(String[] args) throws Exception {
        Api api = Api.postgres();
        HttpLoad.useToken(api.token());
        String jdbc = System.getProperty("bench.jdbc", "jdbc:postgresql://127.0.0.1:5432/agent_memory_it");
        String user = System.getProperty("it.pg.user", "postgres");
        String password = System.getProperty("it.pg.password", "postgres");
        String run = Long.toString(System.currentTimeMillis(), 36);

        // -Dbench.conversation.parts=rest,jdbc,import,history (the default: all) runs a subset, e.g. for profiling.
        List<String> parts = Arrays.asList(System.getProperty("bench.conversation.parts", "rest,jdbc,import,history")
                .split(","));
        ProcessCpu cpu = new ProcessCpu(System.getProperty("bench.server.marker", "wildfly-pg"));
        long perRun = (long) CLIENTS * TURNS_PER_CLIENT;
        // Each phase is warmed up first (the JIT of the server, and of this program for the JDBC loop, needs a few
        // thousand calls), the ceiling first, while the server is quiet; then the two are measured in turn, each
        // ceiling round with the server suspended (measureInTurn). Without a server directory to suspend it with,
        // the ceiling is measured first, then REST: after the REST phase the server's background embedder would
        // work through that phase's messages at full speed and take CPU from the loop.
        Round jdbcWarmUp = r -> {
            double rate = runJdbc(jdbc, user, password, "jdbc-warm" + r + "-" + run, WARMUP_PER_CLIENT);
            // The loop has no service to refresh the planner's statistics (memory.db.analyze-growth); done here.
            analyze(jdbc, user, password);
            return rate;
        };
        Round jdbcRound = r -> runJdbc(jdbc, user, password, "jdbc" + r + "-" + run, TURNS_PER_CLIENT);
        Round restWarmUp = r -> runRest(api, "warm" + r + "-" + run, WARMUP_PER_CLIENT);
        Round restRound = r -> runRest(api, "rest" + r + "-" + run, TURNS_PER_CLIENT);
        ServerSuspension suspension = ServerSuspension.of(
                System.getProperty("it.pg.home"), System.getProperty("it.pg.management", "http://localhost:10090"));
        Measured jdbcCeiling;
        Measured rest;
        String inTurn;
        if (parts.contains("jdbc") && parts.contains("rest") && suspension != null) {
            InTurn both = measureInTurn(cpu, perRun, suspension, jdbcWarmUp, jdbcRound, restWarmUp, restRound);
            jdbcCeiling = both.ceiling();
            rest = both.rest();
            inTurn = "yes, each ceiling round with the server suspended; REST / ceiling of each pair: " + both.pairs();
        } else {
            inTurn = "no: one phase after the other"
                    + (suspension == null
                            ? " (no server directory, -Dit.pg.home, to" + " suspend the server with)"
                            : "");
            jdbcCeiling = !parts.contains("jdbc")
                    ? Measured.NOT_RUN
                    : measure("plain JDBC", cpu, perRun, jdbcWarmUp, jdbcRound);
            rest = !parts.contains("rest")
                    ? Measured.NOT_RUN
                    : measure("REST addTurn", cpu, perRun, restWarmUp, restRound);
        }
        Measured importRate = !parts.contains("import")
                ? Measured.NOT_RUN
                : measure(
                        "import",
                        cpu,
                        IMPORT_TURNS,
                        r -> runImport(api, "warm-import" + r + "-" + run, IMPORT_WARMUP_TURNS),
                        r -> runImport(api, "import" + r + "-" + run, IMPORT_TURNS));
        long pendingAfterWrites = 0;
        String catchUp = "not run";
        long pendingAtReads = 0;
        long[] history = {0, 0};
        List<String> historyWarmUp = new ArrayList<>();
        if (parts.contains("history")) {
            // The background embedder yields to the writers (memory.embedding.busy-share), so vectors lag behind a
            // write burst; it catches up at full speed once the server is quiet. Its rate is measured for at most
            // -Dbench.catchUpSeconds (default 120) rather than waited out: after the write phases' warm-up rounds the
            // backlog is hundreds of thousands of messages. getHistory reads no vectors; it is measured next, with
            // whatever backlog is left (the embedder then yields to the reads as it does to writes).
            pendingAfterWrites = pendingVectors(api);
            long catchUpStart = System.nanoTime();
            long deadline = catchUpStart + Long.getLong("bench.catchUpSeconds", 120) * 1_000_000_000L;
            long pending = pendingAfterWrites;
            while (pending > 0 && System.nanoTime() < deadline) {
                Thread.sleep(1000);
                pending = pendingVectors(api);
            }
            double seconds = (System.nanoTime() - catchUpStart) / 1e9;
            catchUp = pendingAfterWrites == 0
                    ? "nothing to embed"
                    : String.format(
                            Locale.ROOT,
                            "%.0f messages/s over %.0f s (%d still pending then)",
                            (pendingAfterWrites - pending) / seconds,
                            seconds,
                            pending);
            history = historyLatency(api, cpu, "history-" + run, 1000, HISTORY_READS, historyWarmUp);
            pendingAtReads = pendingVectors(api);
        }

        StringBuilder report = new StringBuilder();
        report.append("Conversation benchmark (PostgreSQL, ")
                .append(CLIENTS)
                .append(" clients, ")
                .append(TURNS_PER_CLIENT)
                .append(" turns each; typical turn: ")
                .append(USER_TEXT.length())
                .append("+")
                .append(ASSISTANT_TEXT.length())
                .append(" chars, one tool invocation)\n\n");
        report.append("| measure | value | target |\n|---|---|---|\n");
        report.append(String.format(
                Locale.ROOT, "| REST addTurn, 8 clients (median) | %.0f turns/s | |%n", rest.perSecond()));
        report.append(String.format(
                Locale.ROOT,
                "| plain JDBC, same rows, 8 threads (ceiling, median) | %.0f turns/s | |%n",
                jdbcCeiling.perSecond()));
        report.append(String.format(
                Locale.ROOT,
                "| REST / ceiling | %.0f %% | >= 50 %% |%n",
                100 * rest.perSecond() / jdbcCeiling.perSecond()));
        report.append(String.format(
                Locale.ROOT,
                "| JSONL import, 20,000 turns (median) | %.0f turns/s | >= 5,000 |%n",
                importRate.perSecond()));
        report.append("| ceiling and REST measured in turn | ").append(inTurn).append(" | |\n");
        report.append("| measured rounds, plain JDBC / REST / import (turns/s) | ")
                .append(jdbcCeiling.rounds())
                .append(" / ")
                .append(rest.rounds())
                .append(" / ")
                .append(importRate.rounds())
                .append(" | |\n");
        report.append("| warm-up rounds, plain JDBC (turns/s) | ")
                .append(jdbcCeiling.warmUp())
                .append(" | |\n");
        report.append("| warm-up rounds, REST addTurn (turns/s) | ")
                .append(rest.warmUp())
                .append(" | |\n");
        report.append("| warm-up rounds, import (turns/s) | ")
                .append(importRate.warmUp())
                .append(" | |\n");
        report.append("| CPU per turn, plain JDBC | ").append(jdbcCeiling.cpu()).append(" | |\n");
        report.append("| CPU per turn, REST addTurn | ").append(rest.cpu()).append(" | |\n");
        report.append("| CPU per turn, import | ").append(importRate.cpu()).append(" | |\n");
        report.append("| server CPU per turn by thread, REST addTurn | ")
                .append(rest.serverThreads())
                .append(" | |\n");
        report.append("| server CPU per turn by thread, import | ")
                .append(importRate.serverThreads())
                .append(" | |\n");
        // The vector backlog and getHistory are measured by the history part only; without it they read "not run".
        boolean reads = parts.contains("history");
        report.append("| messages without a vector when the writes ended | ")
                .append(reads ? Long.toString(pendingAfterWrites) : "not run")
                .append(" | |\n");
        report.append("| background embedding once the writes ended (quiet server) | ")
                .append(catchUp)
                .append(" | |\n");
        report.append("| getHistory, 1,000 turns, p50 | ")
                .append(reads ? String.format(Locale.ROOT, "%.1f ms", history[0] / 1e6) : "not run")
                .append(" | < 20 ms |\n");
        report.append("| getHistory, 1,000 turns, p99 | ")
                .append(reads ? String.format(Locale.ROOT, "%.1f ms", history[1] / 1e6) : "not run")
                .append(" | |\n");
        report.append("| warm-up rounds, getHistory (p50 of 100 reads, ms) | ")
                .append(String.join(", ", historyWarmUp))
                .append(" | |\n");
        report.append("| messages without a vector after the reads | ")
                .append(reads ? Long.toString(pendingAtReads) : "not run")
                .append(" | |\n");
        System.out.println(report);
    }

    /**
     * A throughput (per second), the CPU it took per unit ({@link ProcessCpu#perUnit}) and the rates of the warm-up
     * rounds before it.
     */
    private record Measured(double perSecond, String cpu, String serverThreads, String warmUp, String rounds) {
        static final Measured NOT_RUN = new Measured(Double.NaN, "not run", "not run", "not run", "not run");
    }

    /** One round, numbered from 1, that answers its measure (a throughput per second, or a latency). */
    @FunctionalInterface
    private interface Round {
        double run(int round) throws Exception;
    }

    /**
     * Warms up until the rate is steady (see the class comment), then measures {@value #MEASURED_ROUNDS_DEFAULT}
     * rounds ({@code -Dbench.measuredRounds}) with the CPU each process spent on them, and answers their median.
     */
    private static Measured measure(String name, ProcessCpu cpu, long units, Round warmUp, Round phase)
            throws Exception {
        List<String> rounds =
                untilSteady(name, WARMUP_MIN_ROUNDS_USED, WARMUP_MAX_ROUNDS, "", "%.0f", " turns/s", cpu, warmUp);
        ProcessCpu.Sample before = cpu.sample();
        double[] rates = new double[MEASURED_ROUNDS];
        for (int r = 0; r < rates.length; r++) {
            rates[r] = phase.run(r + 1);
            System.out.printf(Locale.ROOT, "%s measured round %d: %.0f turns/s%n", name, r + 1, rates[r]);
        }
        return summarize(name, rates, before, cpu.sample(), rounds, units);
    }

    /**
     * The plain-JDBC ceiling and REST {@code addTurn}, each warmed up until steady on its own (the ceiling first,
     * on a quiet server), then measured in turn: a ceiling round, a REST round, {@value #MEASURED_ROUNDS_DEFAULT}
     * times ({@code -Dbench.measuredRounds}). Both phases then see the machine in the same state: on the 2-core
     * machines of issue 2 the same work ran up to a quarter slower for minutes at a time (this program's own CPU per
     * REST turn, fixed work, read 0.10 to 0.17 ms across identical runs of one session, and the throughput followed
     * it), and phases measured one after the other, minutes apart, compared a fast machine with a slow one. Each
     * ceiling round runs with the server suspended ({@link ServerSuspension}) and idle (waited for, at most
     * {@value #QUIET_WAIT_MS} ms): no requests and no timers, so its background embedder, which would otherwise work
     * through the REST rounds' messages at full speed, takes no CPU from the loop. Each measured round follows an
     * unmeasured lead-in round of the same work ({@code -Dbench.warmupPerClient} turns per client): after the pause
     * the server's embedder starts a quiet batch on every core and the REST rate of the first seconds is not the
     * steady one (measured without lead-in: REST rounds of 940–1,251 turns/s right after warm-up rounds of
     * 1,276–1,388).
     *
     * @return the ceiling, REST, and each pair's ratio
     */
    private static InTurn measureInTurn(
            ProcessCpu cpu,
            long units,
            ServerSuspension suspension,
            Round jdbcWarmUp,
            Round jdbc,
            Round restWarmUp,
            Round rest)
            throws Exception {
        List<String> jdbcWarm = untilSteady(
                "plain JDBC", WARMUP_MIN_ROUNDS_USED, WARMUP_MAX_ROUNDS, "", "%.0f", " turns/s", cpu, jdbcWarmUp);
        List<String> restWarm = untilSteady(
                "REST addTurn", WARMUP_MIN_ROUNDS_USED, WARMUP_MAX_ROUNDS, "", "%.0f", " turns/s", cpu, restWarmUp);
        ProcessCpu.Totals jdbcCpu = new ProcessCpu.Totals();
        ProcessCpu.Totals restCpu = new ProcessCpu.Totals();
        double[] jdbcRates = new double[MEASURED_ROUNDS];
        double[] restRates = new double[MEASURED_ROUNDS];
        List<String> pairs = new ArrayList<>();
        for (int r = 0; r < MEASURED_ROUNDS; r++) {
            long waited;
            double jdbcLeadIn;
            suspension.suspend();
            try {
                waited = cpu.awaitQuietServer(QUIET_CORES, 500, QUIET_WAIT_MS);
                jdbcLeadIn = jdbcWarmUp.run(WARMUP_MAX_ROUNDS + 1 + r);
                ProcessCpu.Sample before = cpu.sample();
                jdbcRates[r] = jdbc.run(r + 1);
                jdbcCpu.add(before, cpu.sample());
            } finally {
                suspension.resume();
            }
            System.out.printf(
                    Locale.ROOT,
                    "plain JDBC measured round %d: %.0f turns/s (server suspended; idle after"
                            + " %d ms; lead-in %.0f turns/s)%n",
                    r + 1,
                    jdbcRates[r],
                    waited,
                    jdbcLeadIn);
            // The server was idle for seconds: its embedder has started a quiet batch on every core, and the first
            // calls after the pause take other paths; a lead-in round of the same work brings it back to the steady
            // state the warm-up ended in before the round is measured.
            double restLeadIn = restWarmUp.run(WARMUP_MAX_ROUNDS + 1 + r);
            System.out.printf(
                    Locale.ROOT, "REST addTurn lead-in before measured round %d: %.0f turns/s%n", r + 1, restLeadIn);
            ProcessCpu.Sample before = cpu.sample();
            restRates[r] = rest.run(r + 1);
            restCpu.add(before, cpu.sample());
            System.out.printf(Locale.ROOT, "REST addTurn measured round %d: %.0f turns/s%n", r + 1, restRates[r]);
            pairs.add(String.format(
                    Locale.ROOT, "%.0f %% (idle after %.1f s)", 100 * restRates[r] / jdbcRates[r], waited / 1000.0));
        }
        return new InTurn(
                summarize("plain JDBC", jdbcRates, jdbcCpu.start(), jdbcCpu.end(), jdbcWarm, units),
                summarize("REST addTurn", restRates, restCpu.start(), restCpu.end(), restWarm, units),
                String.join(", ", pairs));
    }

    /** The ceiling and REST measured in turn ({@link #measureInTurn}), and each pair's ratio with its idle wait. */
    private record InTurn(Measured ceiling, Measured rest, String pairs) {}

    /** The most of one core the suspended server may use for the ceiling round to start. */
    private static final double QUIET_CORES = 0.05;
    /** The longest wait for the suspended server to be idle, ms. */
    private static final long QUIET_WAIT_MS = 60_000;

    /** The median of measured rounds, with the CPU each process spent on them (between two samples). */
    private static Measured summarize(
            String name,
            double[] rates,
            ProcessCpu.Sample before,
            ProcessCpu.Sample after,
            List<String> warmUp,
            long units) {
        String cpuPerUnit = ProcessCpu.perUnit(before, after, units * rates.length);
        String serverThreads = ProcessCpu.serverThreadsPerUnit(before, after, units * rates.length);
        String measuredRounds = Arrays.stream(rates)
                .mapToObj(v -> String.format(Locale.ROOT, "%.0f", v))
                .collect(java.util.stream.Collectors.joining(", "));
        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        Measured measured = new Measured(
                sorted[sorted.length / 2], cpuPerUnit, serverThreads, String.join(", ", warmUp), measuredRounds);
        System.out.printf(
                Locale.ROOT,
                "%s: median %.0f turns/s of %s (%s; server by thread: %s)%n",
                name,
                measured.perSecond(),
                measuredRounds,
                measured.cpu(),
                measured.serverThreads());
        return measured;
    }

    /**
     * Runs rounds until the values level off, after at least {@code minRounds} and at most {@code maxRounds} rounds,
     * printing each: the mean of the last {@value #STEADY_WINDOW} rounds must be within {@value #STEADY_PERCENT} % of
     * the mean of the {@value #STEADY_WINDOW} rounds before them (fewer when {@code minRounds} is below twice that).
     * Comparing windows rather than two single rounds keeps a momentary plateau (two equal rounds while the JIT is
     * still compiling and the rate still climbing) from ending the warm-up. Nor does a round end it in which the
     * server's JIT compiler used more than {@value #JIT_QUIET_CORES} of a core ({@link ProcessCpu#compilerCores};
     * the rule is skipped where {@code /proc} is missing).
     *
     * @return every round's value, formatted with {@code format}, with the compiler's share of a core appended to
     *         rounds it kept from ending the warm-up
     */
    private static List<String> untilSteady(
            String name,
            int minRounds,
            int maxRounds,
            String prefix,
            String format,
            String unit,
            ProcessCpu cpu,
            Round round)
            throws Exception {
        int window = Math.max(1, Math.min(STEADY_WINDOW, minRounds / 2));
        List<String> shownValues = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        ProcessCpu.Sample before = cpu.sample();
        for (int r = 1; r <= maxRounds; r++) {
            double value = round.run(r);
            ProcessCpu.Sample after = cpu.sample();
            double compiler = ProcessCpu.compilerCores(before, after);
            before = after;
            String shown = String.format(Locale.ROOT, format, value);
            boolean compiling = compiler > JIT_QUIET_CORES;
            shownValues.add(compiling ? shown + String.format(Locale.ROOT, " (JIT %.2f)", compiler) : shown);
            values.add(value);
            System.out.println(name + " warm-up round " + r + ": " + prefix + shown + unit
                    + (Double.isNaN(compiler)
                            ? ""
                            : String.format(Locale.ROOT, ", server JIT compiler %.2f cores", compiler)));
            if (compiling) {
                continue;
            }
            if (r >= minRounds && r >= 2 * window) {
                double last = mean(values.subList(r - window, r));
                double previous = mean(values.subList(r - 2 * window, r - window));
                if (Math.abs(last - previous) <= previous * STEADY_PERCENT / 100.0) {
                    break;
                }
            }
        }
        return shownValues;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    private static Map<String, Object> turn(String turnId) {
        Map<String, Object> t =
                Api.obj("turnId", turnId, "userMessage", USER_TEXT, "assistantResponse", ASSISTANT_TEXT);
        t.put(
                "toolInvocations",
                List.of(Api.obj(
                        "toolName",
                        "kubectl_logs",
                        "input",
                        Api.obj("deployment", "payments", "tail", 200),
                        "output",
                        "Error: connection refused (db:5432)",
                        "elapsedMs",
                        812)));
        return t;
    }

    /**
     * 8 clients, each appending to its own conversation over keep-alive HTTP/1.1. The client is kept cheap
     * (HttpURLConnection, bodies serialized before the clock starts) because on a small machine it competes
     * with the server for the same cores.
     *
     * @return turns per second
     */
    static double runRest(Api api, String prefix, int perClient) throws Exception {
        java.net.URL url = api.uri("/turns").toURL();
        byte[][][] bodies = new byte[CLIENTS][perClient][];
        for (int c = 0; c < CLIENTS; c++) {
            for (int i = 0; i < perClient; i++) {
                bodies[c][i] = Api.JSON.writeValueAsBytes(
                        Api.obj("userId", prefix + "-u" + c, "sessionId", "s", "turn", turn("t" + i)));
            }
        }
        AtomicInteger failures = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int c = 0; c < CLIENTS; c++) {
            byte[][] mine = bodies[c];
            Thread t = new Thread(() -> {
                for (byte[] body : mine) {
                    if (HttpLoad.post(url, body) != 201) {
                        failures.incrementAndGet();
                    }
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (failures.get() > 0) {
            System.out.println("WARNING: " + failures.get() + " REST calls did not answer 201");
        }
        return CLIENTS * perClient / seconds;
    }

    /** The same rows, the same way, without the service: the database's ceiling for this write pattern. */
    private static double runJdbc(String url, String user, String password, String prefix, int perClient)
            throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Exception> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            Thread t = new Thread(() -> {
                try (Connection con = connect(url, user, password)) {
                    con.setAutoCommit(false);
                    long conversationId = insertConversation(con, prefix + "-u" + client);
                    con.commit();
                    Pool turnIds = new Pool(con, "turn_seq");
                    Pool invocationIds = new Pool(con, "tool_invocation_seq");
                    Pool messageIds = new Pool(con, "turn_message_seq");
                    for (int i = 0; i < perClient; i++) {
                        appendJdbc(
                                con,
                                conversationId,
                                prefix + "-u" + client,
                                "t" + i,
                                turnIds,
                                invocationIds,
                                messageIds);
                        con.commit();
                    }
                } catch (Exception e) {
                    errors.add(e);
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!errors.isEmpty()) {
            throw errors.get(0);
        }
        return CLIENTS * perClient / ((System.nanoTime() - start) / 1e9);
    }

    /**
     * This machine's PostgreSQL runs with autovacuum off; statistics are refreshed here as autovacuum would, so
     * plans are not made for the empty tables of a fresh database.
     */
    private static void analyze(String url, String user, String password) throws SQLException {
        try (Connection con = connect(url, user, password)) {
            con.createStatement().execute("ANALYZE");
        }
    }

    /** Opens a connection without DriverManager, whose driver registry does not see exec:java's class loader. */
    private static Connection connect(String url, String user, String password) throws SQLException {
        java.util.Properties props = new java.util.Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        return new org.postgresql.Driver().connect(url, props);
    }

    private static long insertConversation(Connection con, String userId) throws SQLException {
        long id;
        try (ResultSet rs = con.createStatement().executeQuery("SELECT nextval('conversation_seq')")) {
            rs.next();
            id = rs.getLong(1);
        }
        try (PreparedStatement ps =
                con.prepareStatement("INSERT INTO conversation (id, tenant_id, chatbot_key, user_id,"
                        + " session_id, created_at, updated_at, metadata, last_seq, turn_count, version)"
                        + " VALUES (?, 'default', '', ?, 's', ?, ?, '{}', 0, 0, 0)")) {
            Timestamp now = Timestamp.from(Instant.now());
            ps.setLong(1, id);
            ps.setString(2, userId);
            ps.setTimestamp(3, now);
            ps.setTimestamp(4, now);
            ps.executeUpdate();
        }
        return id;
    }

    private static void appendJdbc(
            Connection con,
            long conversationId,
            String userId,
            String turnId,
            Pool turnIds,
            Pool invocationIds,
            Pool messageIds)
            throws SQLException {
        long lastSeq;
        try (PreparedStatement ps = con.prepareStatement("SELECT last_seq FROM conversation WHERE id = ? FOR UPDATE")) {
            ps.setLong(1, conversationId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                lastSeq = rs.getLong(1);
            }
        }
        try (PreparedStatement ps =
                con.prepareStatement("SELECT id FROM turn WHERE conversation_id = ? AND turn_id = ?")) {
            ps.setLong(1, conversationId);
            ps.setString(2, turnId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        long turnPk = turnIds.next();
        Timestamp now = Timestamp.from(Instant.now());
        try (PreparedStatement ps =
                con.prepareStatement("INSERT INTO turn (id, tenant_id, conversation_id, seq, turn_id,"
                        + " user_id, chatbot_id, user_message, assistant_response, context_used, tools_used, occurred_at, metadata,"
                        + " error, tokens_user, tokens_assistant, tokens_tools, tokens_total, tokenizer, state, schema_version,"
                        + " norm_version) VALUES (?, 'default', ?, ?, ?, 'u', NULL, ?, ?, NULL, '[]', ?, '{}', NULL, 30, 70, 20, 120,"
                        + " 'o200k_base', 'raw', 2, '1')")) {
            ps.setLong(1, turnPk);
            ps.setLong(2, conversationId);
            ps.setLong(3, lastSeq + 1);
            ps.setString(4, turnId);
            ps.setString(5, USER_TEXT);
            ps.setString(6, ASSISTANT_TEXT);
            ps.setTimestamp(7, now);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = con.prepareStatement("INSERT INTO tool_invocation (id, tenant_id, turn_pk, ordinal,"
                + " tool_name, input, output, status, error, elapsed_ms, output_chars, omitted, wm_key)"
                + " VALUES (?, 'default', ?, 0, 'kubectl_logs', '{\"deployment\":\"payments\",\"tail\":200}',"
                + " 'Error: connection refused (db:5432)', 'completed', NULL, 812, NULL, '{}', NULL)")) {
            ps.setLong(1, invocationIds.next());
            ps.setLong(2, turnPk);
            ps.executeUpdate();
        }
        // The two searchable message rows the service writes per turn (spec: conversation recall). Marked as having
        // no vector on purpose, so the service's background embedder leaves them alone during the REST run.
        try (PreparedStatement ps = con.prepareStatement("INSERT INTO turn_message (id, tenant_id, conversation_id,"
                + " turn_pk, turn_id, seq, role, external_id, chatbot_key, user_id, session_id, author, content,"
                + " search_text, occurred_at, embedding, embedding_model)"
                + " VALUES (?, 'default', ?, ?, ?, ?, ?, NULL, '', ?, 's', NULL, ?, ?, ?, NULL, 'none')")) {
            String[][] messages = {{"user", USER_TEXT}, {"assistant", ASSISTANT_TEXT}};
            for (String[] m : messages) {
                ps.setLong(1, messageIds.next());
                ps.setLong(2, conversationId);
                ps.setLong(3, turnPk);
                ps.setString(4, turnId);
                ps.setLong(5, lastSeq + 1);
                ps.setString(6, m[0]);
                ps.setString(7, userId);
                ps.setString(8, m[1]);
                ps.setString(9, m[1]);
                ps.setTimestamp(10, now);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps =
                con.prepareStatement("UPDATE conversation SET last_seq = ?, turn_count = turn_count + 1,"
                        + " updated_at = ?, version = version + 1 WHERE id = ?")) {
            ps.setLong(1, lastSeq + 1);
            ps.setTimestamp(2, now);
            ps.setLong(3, conversationId);
            ps.executeUpdate();
        }
    }

    /** Pooled ids from a sequence that increments by 50, as the entities allocate them. */
    private static final class Pool {
        private final Connection con;
        private final String sequence;
        private long next;
        private long hi = -1;

        Pool(Connection con, String sequence) {
            this.con = con;
            this.sequence = sequence;
        }

        long next() throws SQLException {
            if (hi < 0 || next > hi) {
                try (ResultSet rs = con.createStatement().executeQuery("SELECT nextval('" + sequence + "')")) {
                    rs.next();
                    hi = rs.getLong(1);
                    next = hi - 49;
                }
            }
            return next++;
        }
    }

    /** @return messages of the tenant that wait for their vector */
    private static long pendingVectors(Api api) {
        return api.get("/admin/reindex/embeddings").json().get("pending").asLong();
    }

    /** @return turns per second of one JSONL import */
    private static double runImport(Api api, String prefix, int turns) throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < turns; i++) {
            body.append(Api.JSON.writeValueAsString(Api.obj(
                            "key",
                            Api.obj("userId", prefix + "-u" + (i % 100), "sessionId", "s" + (i % 7)),
                            "turn",
                            turn("t" + i))))
                    .append('\n');
        }
        long start = System.nanoTime();
        Api.Response r = api.postRaw("/import", body.toString(), "application/x-ndjson");
        double seconds = (System.nanoTime() - start) / 1e9;
        if (r.status() != 200 || r.json().get("turnsImported").asLong() != turns) {
            throw new IllegalStateException("import failed: " + r.status() + " " + r.body());
        }
        return turns / seconds;
    }

    /**
     * Reads a conversation of {@code size} turns over one kept-alive connection ({@link HttpLoad}: the body is read
     * as bytes, not decoded, so that the client's own work stays out of the figure). Warm-up rounds of
     * {@value #HISTORY_ROUND} reads run until the rounds' medians level off ({@link #untilSteady}; at least
     * {@value #HISTORY_MIN_ROUNDS}, at most {@value #HISTORY_MAX_ROUNDS} rounds), then {@code reads}
     * reads are measured.
     *
     * @return {p50, p99} in nanoseconds, and the warm-up rounds' medians in {@code warmUp}
     */
    private static long[] historyLatency(
            Api api, ProcessCpu cpu, String prefix, int size, int reads, List<String> warmUp) throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < size; i++) {
            body.append(Api.JSON.writeValueAsString(
                            Api.obj("key", Api.obj("userId", prefix, "sessionId", "s"), "turn", turn("t" + i))))
                    .append('\n');
        }
        api.postRaw("/import", body.toString(), "application/x-ndjson");
        long id = api.get("/conversations/lookup" + Api.query("userId", prefix, "sessionId", "s"))
                .json()
                .get("conversationId")
                .asLong();
        java.net.URL url = api.uri("/conversations/" + id).toURL();
        int turnsRead = Api.JSON.readTree(HttpLoad.call(url, null)).get("turns").size();
        if (turnsRead != size) {
            throw new IllegalStateException("the history has " + turnsRead + " turns, not " + size);
        }
        warmUp.addAll(untilSteady(
                "getHistory",
                HISTORY_MIN_ROUNDS,
                HISTORY_MAX_ROUNDS,
                "p50 ",
                "%.1f",
                " ms",
                cpu,
                round -> readTimes(url, HISTORY_ROUND)[HISTORY_ROUND / 2] / 1e6));
        long[] times = readTimes(url, reads);
        return new long[] {times[reads / 2], times[(int) Math.ceil(reads * 0.99) - 1]};
    }

    /** @return the sorted durations, ns, of {@code reads} reads of {@code url} */
    static long[] readTimes(java.net.URL url, int reads) throws Exception {
        long[] times = new long[reads];
        for (int i = 0; i < reads; i++) {
            long start = System.nanoTime();
            HttpLoad.call(url, null);
            times[i] = System.nanoTime() - start;
        }
        Arrays.sort(times);
        return times;
    }
}
