package org.agentmemory.it.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.agentmemory.it.support.Api;

/**
 * The dream cycle at scale on the PostgreSQL server (issue 33's benchmark), heuristic distillation (the server has no
 * model configured):
 *
 * <ol>
 *   <li>Records {@code bench.dream.episodes} (default 10,000) eligible episodes of one agent (a lesson each, 40
 *       themes: tool × problem, the situation varying by service and case number) through
 *       {@code POST /episodes/batch}; each is embedded on write, so every episode has its stored vector.</li>
 *   <li>Runs {@code POST /brain/cycles} until a cycle collects nothing, and reports the wall time of all cycles, the
 *       cycles, the pages produced and the server's peak heap during them (sampled every 250 ms from
 *       {@code jvm_memory_used_bytes{area="heap"}} of the management Prometheus endpoint).</li>
 *   <li>Writes {@code bench.dream.pages} (default 10,000) distinct pages into another agent's brain through
 *       {@code POST /brain/pages} (2 clients) and reports the p50 / p95 of {@code bench.queries} (default 300)
 *       {@code POST /brain/search} calls (top 5, hybrid), client-measured, after 30 warm-up searches.</li>
 * </ol>
 * Run: {@code mvn -pl memory-it/suite -am verify -Pbenchmark -DskipTests} (skip it with
 * {@code -Dbench.dream.skip=true}; the others with their own skip properties).
 */
public final class DreamBenchmark {

    private static final String[] TOOLS = {"kubectl", "psql", "stripe", "smtp", "pdf_render", "s3", "terraform", "git"};
    private static final String[] PROBLEMS = {
        "timed out after 30 s",
        "was rejected by a quota",
        "failed with permission denied",
        "returned malformed JSON",
        "hit a rate limit"
    };
    private static final String[] SERVICES = {"billing", "payments", "search", "inventory", "auth", "reporting"};

    private DreamBenchmark() {}

    /**
     * @param args unused
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        Api api = Api.postgres();
        int total = Integer.getInteger("bench.dream.episodes", 10_000);
        int pages = Integer.getInteger("bench.dream.pages", 10_000);
        int queries = Integer.getInteger("bench.queries", 300);
        String run = Long.toString(System.currentTimeMillis(), 36);
        String agent = "dream-" + run;

        long ingestStart = System.nanoTime();
        for (int first = 0; first < total; first += 500) {
            Random random = new Random(42L + first);
            List<Map<String, Object>> episodes = new ArrayList<>();
            for (int i = first; i < Math.min(total, first + 500); i++) {
                String tool = TOOLS[i % TOOLS.length];
                String problem = PROBLEMS[(i / TOOLS.length) % PROBLEMS.length];
                episodes.add(Api.obj(
                        "namespace",
                        Api.obj("agentId", agent, "userId", "user-" + (i % 100)),
                        "situation",
                        "Calling " + tool + " for the " + SERVICES[random.nextInt(SERVICES.length)] + " service "
                                + problem + " (case " + i + ")",
                        "actionTaken",
                        "Retried " + tool + " once, then reported it",
                        "outcome",
                        "failure",
                        "category",
                        "tool_execution",
                        "relatedTools",
                        List.of(tool),
                        "importance",
                        6,
                        "lessonLearned",
                        "When " + tool + " " + problem + ", lesson " + (i % 3),
                        "generateReflection",
                        false));
            }
            Api.Response r = api.post("/episodes/batch", Api.obj("episodes", episodes));
            if (r.status() != 200) {
                throw new IllegalStateException("batch at " + first + " failed: " + r.status() + " " + r.body());
            }
        }
        double ingestSeconds = (System.nanoTime() - ingestStart) / 1e9;

        AtomicLong peak = new AtomicLong(heap(api));
        long heapBefore = peak.get();
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(heap(api), Math::max);
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        long start = System.nanoTime();
        int cycles = 0;
        int consolidated = 0;
        int created = 0;
        int groups = 0;
        while (true) {
            Api.Response r = api.post("/brain/cycles", Api.obj("agentId", agent));
            if (r.status() != 200) {
                throw new IllegalStateException("cycle failed: " + r.status() + " " + r.body());
            }
            JsonNode report = r.json();
            if (report.get("aborted").asBoolean()) {
                throw new IllegalStateException("cycle aborted: " + report);
            }
            if (report.get("episodesCollected").asInt() == 0) {
                break;
            }
            cycles++;
            consolidated += report.get("episodesConsolidated").asInt();
            created += report.get("pagesCreated").size();
            groups += report.get("groupsDistilled").asInt();
        }
        double dreamSeconds = (System.nanoTime() - start) / 1e9;
        sampler.interrupt();

        String brainAgent = "pages-" + run;
        long writeStart = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> writes = new ArrayList<>();
        for (int client = 0; client < 2; client++) {
            int c = client;
            writes.add(pool.submit(() -> {
                for (int i = c; i < pages; i += 2) {
                    String tool = TOOLS[i % TOOLS.length];
                    Api.Response r = api.post(
                            "/brain/pages",
                            Api.obj(
                                    "agentId",
                                    brainAgent,
                                    "title",
                                    "Runbook " + i + ": " + tool + " in " + SERVICES[i % SERVICES.length],
                                    "body",
                                    "- When " + tool + " " + PROBLEMS[i % PROBLEMS.length] + ", check case " + i
                                            + "\n- Escalate to the " + SERVICES[(i / 7) % SERVICES.length] + " team",
                                    "category",
                                    "lesson"));
                    if (r.status() != 201) {
                        throw new IllegalStateException("page " + i + ": " + r.status() + " " + r.body());
                    }
                }
                return null;
            }));
        }
        for (Future<?> w : writes) {
            w.get();
        }
        pool.shutdown();
        double writeSeconds = (System.nanoTime() - writeStart) / 1e9;
        Random random = new Random(5);
        for (int i = 0; i < 30; i++) {
            search(api, brainAgent, random);
        }
        long[] latencies = new long[queries];
        for (int i = 0; i < queries; i++) {
            latencies[i] = search(api, brainAgent, random);
        }
        Arrays.sort(latencies);

        StringBuilder report = new StringBuilder();
        report.append("# Dream cycle (")
                .append(total)
                .append(" eligible episodes with stored vectors, heuristic,")
                .append(" PostgreSQL)\n\n| measure | value | target |\n|---|---:|---|\n");
        report.append(String.format(
                Locale.ROOT,
                "| ingest (batches of 500, embedded on write) | %.0f episodes/s | |%n",
                total / ingestSeconds));
        report.append(String.format(
                Locale.ROOT,
                "| consolidation wall time (%d cycles until one collects nothing) | %.1f s | < 60 s |%n",
                cycles,
                dreamSeconds));
        report.append(String.format(
                Locale.ROOT,
                "| episodes consolidated; groups distilled; pages created |" + " %d; %d; %d | all %d |%n",
                consolidated,
                groups,
                created,
                total));
        report.append(String.format(
                Locale.ROOT,
                "| server heap before; peak during the cycles | %d MB; %d MB | |%n",
                heapBefore >> 20,
                peak.get() >> 20));
        report.append(String.format(
                Locale.ROOT,
                "| page writes (2 clients, embedded on write) | %.0f pages/s | |%n",
                pages / writeSeconds));
        report.append(String.format(
                Locale.ROOT,
                "| brain search over %d pages, p50 / p95 (%d queries) | %.1f ms /" + " %.1f ms | |%n",
                pages,
                queries,
                latencies[queries / 2] / 1e6,
                latencies[(int) Math.ceil(queries * 0.95) - 1] / 1e6));
        System.out.println(report);
    }

    private static long search(Api api, String agent, Random random) {
        String query = "what to do when " + TOOLS[random.nextInt(TOOLS.length)] + " "
                + PROBLEMS[random.nextInt(PROBLEMS.length)] + " for " + SERVICES[random.nextInt(SERVICES.length)];
        long t = System.nanoTime();
        Api.Response r = api.post("/brain/search", Api.obj("agentId", agent, "query", query, "topK", 5));
        long elapsed = System.nanoTime() - t;
        if (r.status() != 200 || r.json().get("hits").isEmpty()) {
            throw new IllegalStateException("search failed or found nothing: " + r.status() + " " + r.body());
        }
        return elapsed;
    }

    /** @return the server's used heap, bytes (sum over heap pools), or 0 when the metric is not exported */
    private static long heap(Api api) {
        Api.Response r = api.send(HttpRequest.newBuilder(URI.create(api.management() + "/prometheus"))
                .GET());
        long used = 0;
        for (String line : r.body().split("\n")) {
            if (line.startsWith("jvm_memory_used_bytes") && line.contains("area=\"heap\"")) {
                used += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return used;
    }
}
