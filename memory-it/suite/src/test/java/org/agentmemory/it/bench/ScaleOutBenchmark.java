package org.agentmemory.it.bench;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.ScaleOutCluster;
import org.agentmemory.it.support.Turns;

/**
 * The scale-out benchmark of issue 36, on the README's topology ({@link ScaleOutCluster}: an OpenSearch node and two
 * WildFly servers on one PostgreSQL database, outbox polling) beside the suite's PostgreSQL server (embedded Lucene):
 *
 * <ol>
 * <li>LoCoMo (the given split) through {@link LocomoBenchmark} on Lucene and on OpenSearch in the same run: R@10 and
 * latency p50/p95 per mode, reports in {@code OUTPUT_DIR/lucene} and {@code OUTPUT_DIR/opensearch}.</li>
 * <li>REST {@code addTurn} throughput with 8 clients for {@code bench.scaleout.seconds} (default 30) against node A
 * alone, then spread over both nodes; and the outbox lag meanwhile: a sampler writes a turn with a unique word every
 * 250 ms and polls OpenSearch directly until the word is found (commit to searchable, p50/p99).</li>
 * </ol>
 *
 * <p>Arguments: {@code TURNS.jsonl QUERIES.jsonl OUTPUT_DIR}. Run: {@code mvn -B verify -pl memory-it/suite -am
 * -Pbenchmark -DskipTests} with the other benchmarks skipped (docs/benchmarks.md, "Scale-out").
 */
public final class ScaleOutBenchmark {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ScaleOutBenchmark() {}

    /**
     * @param args turns file, queries file, output folder
     * @throws Exception on any failure
     */
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[2]);
        Files.createDirectories(out);
        ScaleOutCluster cluster = ScaleOutCluster.start();
        StringBuilder report = new StringBuilder("# Scale-out benchmark\n\n");
        try {
            Api a = cluster.nodeA().api();
            Api b = cluster.nodeB().api();
            String luceneBase = System.getProperty("it.pg.base");
            String luceneHome = System.getProperty("it.pg.home");

            // 1. LoCoMo on OpenSearch (node A), then on Lucene (the suite's PostgreSQL server).
            System.setProperty("bench.locomo.settle-ms", "5000");
            System.setProperty("it.pg.base", a.base());
            System.setProperty("it.pg.home", System.getProperty("it.node.a.home"));
            LocomoBenchmark.main(
                    new String[] {args[0], args[1], out.resolve("opensearch").toString()});
            System.setProperty("it.pg.base", luceneBase);
            System.setProperty("it.pg.home", luceneHome);
            LocomoBenchmark.main(
                    new String[] {args[0], args[1], out.resolve("lucene").toString()});
            report.append("LoCoMo: see opensearch/locomo-report.md and lucene/locomo-report.md.\n\n");

            // 2. addTurn throughput, one node against two, with the outbox lag meanwhile.
            int seconds = Integer.getInteger("bench.scaleout.seconds", 30);
            report.append("| servers | turns/s (8 clients, ")
                    .append(seconds)
                    .append(" s) | failed | outbox lag p50 ms | p99 ms | samples |\n|---|---:|---:|---:|---:|---:|\n");
            for (List<Api> nodes : List.of(List.of(a), List.of(a, b))) {
                report.append(load(nodes, seconds, cluster)).append('\n');
            }
        } finally {
            cluster.stop();
        }
        Files.writeString(out.resolve("scale-out-report.md"), report.toString(), StandardCharsets.UTF_8);
        System.out.println(report);
    }

    private static String load(List<Api> nodes, int seconds, ScaleOutCluster cluster) throws Exception {
        String run = Long.toString(System.nanoTime(), 36);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            Api api = nodes.get(c % nodes.size());
            int client = c;
            Thread thread = new Thread(() -> {
                int i = 0;
                while (!stop.get()) {
                    Api.Response r = api.post(
                            "/turns",
                            Turns.addTurn(
                                    "scale-bench",
                                    "load-" + run + "-" + client,
                                    "s",
                                    Turns.turn("t" + i++, "load question " + i, "load answer " + i)));
                    if (r.status() == 201) {
                        done.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                    }
                }
            });
            thread.start();
            clients.add(thread);
        }
        ConcurrentLinkedQueue<Long> lags = new ConcurrentLinkedQueue<>();
        Thread sampler = new Thread(() -> {
            int n = 0;
            while (!stop.get()) {
                String word = "lag" + run + "x" + n++;
                Api api = nodes.get(n % nodes.size());
                Api.Response r = api.post(
                        "/turns", Turns.addTurn("scale-bench", "lag-" + run, "s", Turns.turn(word, word, "ok")));
                long committed = System.nanoTime();
                if (r.status() == 201 && awaitFound(cluster, word, Duration.ofSeconds(30))) {
                    lags.add((System.nanoTime() - committed) / 1_000_000);
                }
                pause(250);
            }
        });
        sampler.start();
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (Thread t : clients) {
            t.join();
        }
        sampler.join();
        double elapsed = (System.nanoTime() - start) / 1e9;
        List<Long> sorted = new ArrayList<>(lags);
        Collections.sort(sorted);
        return String.format(
                Locale.ROOT,
                "| %d | %.0f | %d | %d | %d | %d |",
                nodes.size(),
                done.get() / elapsed,
                failed.get(),
                sorted.isEmpty() ? -1 : sorted.get(sorted.size() / 2),
                sorted.isEmpty() ? -1 : sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * 0.99) - 1)),
                sorted.size());
    }

    /** Polls OpenSearch directly (not the service) until a message holding {@code word} is in the index. */
    private static boolean awaitFound(ScaleOutCluster cluster, String word, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        URI uri = URI.create(cluster.search().uri() + "/turn_message-read/_count?q="
                + URLEncoder.encode("\"" + word + "\"", StandardCharsets.UTF_8));
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r =
                        HTTP.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200
                        && Api.JSON.readTree(r.body()).get("count").asLong() > 0) {
                    return true;
                }
            } catch (Exception e) {
                // not yet
            }
            pause(10);
        }
        return false;
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
