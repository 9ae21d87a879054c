package org.agentmemory.it.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.RemoteClient;

/**
 * Write-path benchmark of issue 3 on a running server backed by PostgreSQL. Prints a report; never asserts.
 * Two turn shapes: a typical tool turn (about 1 KB of text, two tool invocations, one of them a 20 KB output
 * that is offloaded to the omission store) and a text-only turn. Each is written through REST and through the
 * remote EJB view with 8 concurrent clients (turns/s), and the typical turn's single-client latency is
 * measured (p50/p99). Normalization + counting against raw jtokkit is in memory-bench's
 * WritePathTextBenchmark (in-process).
 * Run: {@code mvn -pl memory-it/suite -am verify -Pbenchmark -DskipTests}
 */
public final class WritePathBenchmark {

    private static final int CLIENTS = 8;
    private static final int PER_CLIENT = Integer.getInteger("bench.writePerClient", 150);
    private static final String USER =
            "Please look at the nightly ETL job for the billing warehouse. It failed around 02:10"
                    + " with a timeout on the staging load, and this morning the finance dashboards show yesterday's numbers."
                    + " Can you find which step failed, whether the partial load left duplicates in the fact table, and what we"
                    + " should re-run? Keep it short; I need to reply to the CFO in ten minutes.";
    private static final String ASSISTANT = "The job failed in step 4 (load_staging_invoices): the COPY from the"
            + " object store timed out after 900 s because the source partition for 2026-11-29 was 6x larger than"
            + " usual. The transaction rolled back, so the fact table has no duplicates: row counts match the 28th."
            + " Re-run the job from step 4 with the larger timeout (--copy-timeout 3600); steps 5-7 are idempotent."
            + " Expected runtime is about 40 minutes, so the dashboards should refresh before 11:00.";
    private static final String BIG_OUTPUT;

    static {
        StringBuilder out = new StringBuilder();
        for (int i = 0; out.length() < 20_000; i++) {
            out.append(String.format(
                    Locale.ROOT,
                    "2026-11-30T02:%02d:%02dZ INFO load_staging_invoices chunk=%d rows=%d" + " bytes=%d status=ok%n",
                    (i / 60) % 60,
                    i % 60,
                    i,
                    10_000 + i * 13,
                    1_048_576 + i * 977));
        }
        BIG_OUTPUT = out.substring(0, 20_000);
    }

    private WritePathBenchmark() {}

    public static void main(String[] args) throws Exception {
        Api api = Api.postgres();
        HttpLoad.useToken(api.token());
        String run = Long.toString(System.currentTimeMillis(), 36);
        // Warm-up of both paths.
        rest(api, "warm-" + run, true, 60);
        ejb("warm-ejb-" + run, true, 60);

        double restTool = rest(api, "rest-tool-" + run, true, PER_CLIENT);
        double restText = rest(api, "rest-text-" + run, false, PER_CLIENT);
        double ejbTool = ejb("ejb-tool-" + run, true, PER_CLIENT);
        double ejbText = ejb("ejb-text-" + run, false, PER_CLIENT);
        // Latency is measured on a quiet server: let the background embedder finish the throughput runs' messages.
        org.agentmemory.it.support.Embeddings.awaitVectors(api, java.time.Duration.ofMinutes(10));
        long[] latency = latency(api, "latency-" + run, 300);

        StringBuilder report = new StringBuilder();
        report.append(String.format(
                Locale.ROOT,
                "Write-path benchmark (PostgreSQL, %d clients x %d turns; tool turn: %d chars"
                        + " of text, two invocations, one %d-char output offloaded)%n%n",
                CLIENTS,
                PER_CLIENT,
                USER.length() + ASSISTANT.length(),
                BIG_OUTPUT.length()));
        report.append("| path | tool turn (turns/s) | text-only turn (turns/s) |\n|---|---|---|\n");
        report.append(String.format(Locale.ROOT, "| REST | %.0f | %.0f |%n", restTool, restText));
        report.append(String.format(Locale.ROOT, "| remote EJB | %.0f | %.0f |%n%n", ejbTool, ejbText));
        report.append(String.format(
                Locale.ROOT,
                "Oversized tool turn, one client over REST: p50 %.1f ms, p99 %.1f ms" + " (target p50 < 15 ms)%n",
                latency[0] / 1e6,
                latency[1] / 1e6));
        System.out.println(report);
    }

    private static Map<String, Object> restTurn(String turnId, boolean tools) {
        Map<String, Object> t = Api.obj("turnId", turnId, "userMessage", USER, "assistantResponse", ASSISTANT);
        if (tools) {
            t.put(
                    "toolInvocations",
                    List.of(
                            Api.obj(
                                    "toolName",
                                    "etl_status",
                                    "input",
                                    Api.obj("job", "billing-nightly", "date", "2026-11-30"),
                                    "output",
                                    "{\"failed_step\":4,\"status\":\"failed\",\"error\":\"timeout\"}",
                                    "elapsedMs",
                                    120),
                            Api.obj(
                                    "toolName",
                                    "read_logs",
                                    "input",
                                    Api.obj("step", 4, "tail", 5000),
                                    "output",
                                    BIG_OUTPUT + " " + turnId,
                                    "elapsedMs",
                                    840)));
        }
        return t;
    }

    private static double rest(Api api, String prefix, boolean tools, int perClient) throws Exception {
        java.net.URL url = api.uri("/turns").toURL();
        byte[][][] bodies = new byte[CLIENTS][perClient][];
        for (int c = 0; c < CLIENTS; c++) {
            for (int i = 0; i < perClient; i++) {
                bodies[c][i] = Api.JSON.writeValueAsBytes(
                        Api.obj("userId", prefix + "-u" + c, "sessionId", "s", "turn", restTurn("t" + i, tools)));
            }
        }
        AtomicInteger failures = new AtomicInteger();
        long start = System.nanoTime();
        runThreads(c -> {
            for (byte[] body : bodies[c]) {
                if (HttpLoad.post(url, body) != 201) {
                    failures.incrementAndGet();
                }
            }
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        if (failures.get() > 0) {
            System.out.println("WARNING: " + failures.get() + " REST writes failed");
        }
        return CLIENTS * perClient / seconds;
    }

    private static double ejb(String prefix, boolean tools, int perClient) throws Exception {
        ConversationMemoryRemote remote = RemoteClient.conversationMemory();
        AtomicInteger failures = new AtomicInteger();
        long start = System.nanoTime();
        runThreads(c -> {
            ConversationKey key = ConversationKey.of(null, prefix + "-u" + c, "s");
            for (int i = 0; i < perClient; i++) {
                TurnRecord turn = TurnRecord.of("t" + i, USER, ASSISTANT);
                if (tools) {
                    turn = turn.withToolInvocations(List.of(
                            ToolInvocationRecord.of(
                                    "etl_status", Map.of("job", "billing-nightly"), "{\"failed_step\":4}"),
                            ToolInvocationRecord.of("read_logs", Map.of("step", 4), BIG_OUTPUT + " t" + i)));
                }
                try {
                    remote.addTurn(key, turn);
                } catch (Exception e) {
                    failures.incrementAndGet();
                }
            }
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        if (failures.get() > 0) {
            System.out.println("WARNING: " + failures.get() + " EJB writes failed");
        }
        return CLIENTS * perClient / seconds;
    }

    private static long[] latency(Api api, String prefix, int count) throws Exception {
        java.net.URL url = api.uri("/turns").toURL();
        long[] times = new long[count];
        for (int i = 0; i < count; i++) {
            byte[] body = Api.JSON.writeValueAsBytes(
                    Api.obj("userId", prefix, "sessionId", "s", "turn", restTurn("t" + i, true)));
            long start = System.nanoTime();
            HttpLoad.post(url, body);
            times[i] = System.nanoTime() - start;
        }
        Arrays.sort(times);
        return new long[] {times[count / 2], times[(int) Math.ceil(count * 0.99) - 1]};
    }

    interface ClientTask {
        void run(int client) throws Exception;
    }

    private static void runThreads(ClientTask task) throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Exception> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            Thread t = new Thread(() -> {
                try {
                    task.run(client);
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
    }
}
