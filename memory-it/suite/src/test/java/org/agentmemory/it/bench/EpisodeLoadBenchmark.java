package org.agentmemory.it.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.SearchStatus;

/**
 * Episodic load: ingest rate (including embedding) and recall latency with many episodes in one tenant.
 *
 * <ol>
 * <li>Records {@code bench.episodes} (default 100,000) synthetic episodes of one agent in the default tenant,
 * spread over 1,000 users, through {@code POST /api/v1/episodes/batch} (500 per call, no reflection, from
 * {@code bench.load.clients} concurrent clients, default 2), and reports
 * episodes/s.</li>
 * <li>Runs {@code bench.queries} (default 300) hybrid recalls ({@code POST /api/v1/episodes/recall}, top 5) for the
 * agent-wide namespace and for single users, and reports p50/p95 latency (client-measured, HTTP included), as
 * ingested and again after the merge the server starts by itself once writes stop.</li>
 * </ol>
 * Deterministic texts (seeded). Run: {@code mvn -pl memory-it/suite -am verify -Pbenchmark -DskipTests}.
 */
public final class EpisodeLoadBenchmark {

    private static final String[] SERVICES = {
        "billing",
        "payments",
        "search",
        "inventory",
        "auth",
        "reporting",
        "notifications",
        "ledger",
        "shipping",
        "catalog",
        "analytics",
        "checkout"
    };
    private static final String[] TOOLS = {
        "kubectl_logs",
        "sql_query",
        "http_get",
        "read_file",
        "send_email",
        "create_ticket",
        "deploy",
        "rollback",
        "s3_upload",
        "cron_schedule"
    };
    private static final String[] PROBLEMS = {
        "timed out after 30 s",
        "returned 429 too many requests",
        "failed with permission denied",
        "could not connect: connection refused",
        "rejected malformed JSON input",
        "ran out of memory on a large batch",
        "succeeded after a retry",
        "returned stale data from the cache",
        "locked the table during migration",
        "exceeded the disk quota"
    };
    private static final String[] ASKS = {
        "check why", "summarize how", "find out whether", "explain when", "fix the way", "report how often"
    };

    private EpisodeLoadBenchmark() {}

    /**
     * @param args unused
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        Api api = Api.postgres();
        int total = Integer.getInteger("bench.episodes", 100_000);
        int queries = Integer.getInteger("bench.queries", 300);
        String agent = "load-" + Long.toString(System.currentTimeMillis(), 36);
        int batch = 500;
        int clients = Integer.getInteger("bench.load.clients", 2);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
        List<java.util.concurrent.Future<?>> calls = new ArrayList<>();
        long start = System.nanoTime();
        for (int first = 0; first < total; first += batch) {
            int from = first;
            calls.add(pool.submit(() -> {
                Random random = new Random(42L + from); // the same episodes whatever the number of clients
                List<Map<String, Object>> episodes = new ArrayList<>();
                for (int i = from; i < Math.min(total, from + batch); i++) {
                    String service = SERVICES[random.nextInt(SERVICES.length)];
                    String tool = TOOLS[random.nextInt(TOOLS.length)];
                    String problem = PROBLEMS[random.nextInt(PROBLEMS.length)];
                    boolean failed = !problem.startsWith("succeeded");
                    episodes.add(Api.obj(
                            "namespace",
                            Api.obj("agentId", agent, "userId", "user-" + (i % 1000)),
                            "situation",
                            "User asked to " + ASKS[random.nextInt(ASKS.length)] + " the " + service + " service "
                                    + problem + " (case " + i + ")",
                            "actionTaken",
                            "Called " + tool + " on " + service,
                            "outcome",
                            failed ? "failure" : "success",
                            "errorMessage",
                            failed ? service + " " + problem : null,
                            "relatedTools",
                            List.of(tool),
                            "generateReflection",
                            false));
                }
                Api.Response r = api.post("/episodes/batch", Api.obj("episodes", episodes));
                if (r.status() != 200) {
                    throw new IllegalStateException("batch at " + from + " failed: " + r.status() + " " + r.body());
                }
                return null;
            }));
        }
        int done = 0;
        for (java.util.concurrent.Future<?> call : calls) {
            call.get();
            // This machine's PostgreSQL runs with autovacuum off: without fresh statistics its cached plans for
            // the duplicate check go on scanning the table it was planned for when empty. Analyze as autovacuum
            // would (every ~10 % growth); the time it takes counts in the ingest rate.
            if (++done % 20 == 0) {
                analyze();
            }
        }
        pool.shutdown();
        double seconds = (System.nanoTime() - start) / 1e9;

        // Recall as ingest left the index (many segments), then after the merge the server starts by itself once
        // writes have stopped (memory.search.quiet-merge-writes / -seconds); when that is turned off, after
        // POST /admin/reindex/merge.
        java.time.Instant ingestEnd = java.time.Instant.now();
        long[][] asIngested = recallLatencies(api, agent, queries);
        String how = "automatic merge after the bulk write";
        com.fasterxml.jackson.databind.JsonNode status =
                api.get("/admin/reindex").json();
        long deadline = System.nanoTime()
                + java.util.concurrent.TimeUnit.MINUTES.toNanos(
                        Integer.getInteger("bench.load.merge-wait-minutes", 15));
        while (!SearchStatus.automaticMergeAfter(status, ingestEnd) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            status = api.get("/admin/reindex").json();
        }
        if (!SearchStatus.automaticMergeAfter(status, ingestEnd)) {
            how = "POST /admin/reindex/merge (no automatic merge seen)";
            Api.Response merge = api.post("/admin/reindex/merge", "");
            if (merge.status() != 202) {
                throw new IllegalStateException("merge failed to start: " + merge.status() + " " + merge.body());
            }
            do {
                Thread.sleep(500);
                status = api.get("/admin/reindex").json();
            } while ("running".equals(status.get("state").asText()));
        }
        String state = status.get("state").asText();
        double mergeSeconds = java.time.Duration.between(
                                java.time.Instant.parse(status.get("startedAt").asText()),
                                java.time.Instant.parse(status.get("finishedAt").asText()))
                        .toMillis()
                / 1e3;
        double untilMerged = java.time.Duration.between(
                                ingestEnd,
                                java.time.Instant.parse(status.get("finishedAt").asText()))
                        .toMillis()
                / 1e3;
        System.out.println("Merge: " + status);
        long[][] merged = recallLatencies(api, agent, queries);

        StringBuilder report = new StringBuilder();
        report.append("# Episodic load (").append(total).append(" episodes, one tenant, one agent, 1,000 users)\n\n");
        report.append("| measure | value | target |\n|---|---:|---|\n");
        report.append(String.format(
                Locale.ROOT,
                "| ingest incl. embedding (batches of %d, %d clients) | %.0f episodes/s | >= 200 |%n",
                batch,
                clients,
                total / seconds));
        row(report, "as ingested", asIngested);
        report.append(String.format(
                Locale.ROOT,
                "| %s: merge time; last write to merged | %.1f s; %.1f s (%s) | |%n",
                how,
                mergeSeconds,
                untilMerged,
                state));
        row(report, "after merge", merged);
        System.out.println(report);
    }

    /** @return {agent-wide, one user} latencies in ns, sorted, after 30 warm-up recalls */
    private static long[][] recallLatencies(Api api, String agent, int queries) {
        for (int i = 0; i < 30; i++) {
            recall(api, agent, null, "why did the billing service time out");
        }
        long[] agentWide = new long[queries];
        long[] perUser = new long[queries];
        for (int i = 0; i < queries; i++) {
            String q = "the " + SERVICES[i % SERVICES.length] + " service " + PROBLEMS[(i * 7) % PROBLEMS.length];
            long t0 = System.nanoTime();
            recall(api, agent, null, q);
            agentWide[i] = System.nanoTime() - t0;
            long t1 = System.nanoTime();
            recall(api, agent, "user-" + (i % 1000), q);
            perUser[i] = System.nanoTime() - t1;
        }
        Arrays.sort(agentWide);
        Arrays.sort(perUser);
        return new long[][] {agentWide, perUser};
    }

    private static void row(StringBuilder report, String when, long[][] latencies) {
        String[] scopes = {"agent-wide", "one user"};
        for (int s = 0; s < 2; s++) {
            long[] t = latencies[s];
            report.append(String.format(
                    Locale.ROOT,
                    "| hybrid recall %s, %s, p50 / p95 | %.1f / %.1f ms | p95 < 25 ms |%n",
                    scopes[s],
                    when,
                    t[t.length / 2] / 1e6,
                    t[(int) Math.ceil(t.length * 0.95) - 1] / 1e6));
        }
    }

    private static void analyze() throws java.sql.SQLException {
        java.util.Properties props = new java.util.Properties();
        props.setProperty("user", System.getProperty("it.pg.user", "postgres"));
        props.setProperty("password", System.getProperty("it.pg.password", "postgres"));
        try (java.sql.Connection con = new org.postgresql.Driver()
                .connect(System.getProperty("bench.jdbc", "jdbc:postgresql://127.0.0.1:5432/agent_memory_it"), props)) {
            con.createStatement().execute("ANALYZE episode");
        }
    }

    private static void recall(Api api, String agent, String user, String query) {
        Map<String, Object> ns = Api.obj("agentId", agent);
        if (user != null) {
            ns.put("userId", user);
        }
        Api.Response r = api.post("/episodes/recall", Api.obj("namespace", ns, "query", query, "topK", 5));
        if (r.status() != 200) {
            throw new IllegalStateException("recall failed: " + r.status() + " " + r.body());
        }
    }
}
