package org.agentmemory.it.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Locomo;

/**
 * LoCoMo retrieval benchmark of conversation recall, through the product's own API on a running server.
 *
 * <ol>
 * <li>Ingest: each LoCoMo conversation is imported into its own scope (user {@code bench-<run>-<conv_id>}, agent
 * {@code locomo}) with {@code POST /api/v1/import} (the JSONL format of {@link Locomo}: each utterance and its
 * reply form one turn, their {@code dia_id}s in the turn metadata); messages are embedded and indexed on write.</li>
 * <li>Recall: each question is answered with {@code POST /api/v1/messages/search} in the conversation's scope,
 * top 10 messages, in {@code full_text}, {@code vector} and {@code hybrid} mode; their external ids are the
 * ranked {@code dia_id}s.</li>
 * <li>Score: run files {@code locomo-run-<mode>.jsonl} are written to the output folder and scored by
 * {@code locomo_eval.py --score} (found next to the questions file, or {@code -Dbench.eval=…}); the report also
 * recomputes R@5, R@10 and NDCG@10 (same definitions) for categories 1–4 and with adversarial questions, and gives
 * ingest time and recall latency p50/p95 per mode (client-measured, HTTP included).</li>
 * </ol>
 *
 * <p>Arguments: {@code TURNS.jsonl QUERIES.jsonl [OUTPUT_DIR]}. Server: {@code -Dit.pg.base=http://localhost:8180}.
 * Run: {@code mvn -pl memory-it/suite -am verify -Pbenchmark -DskipTests} (see the suite's pom).
 */
public final class LocomoBenchmark {

    private static final List<String> MODES = List.of("full_text", "vector", "hybrid");
    /**
     * Messages asked for per question ({@code -Dbench.locomo.topK}, default 10). Metrics cut at 10 whatever the
     * value; 50 writes run files deep enough to tune fusion offline on the legs' rankings.
     */
    private static final int TOP_K = Integer.getInteger("bench.locomo.topK", 10);

    private LocomoBenchmark() {}

    /**
     * @param args turns file, queries file, optional output folder (default {@code target/locomo})
     * @throws Exception on any failure (the report is not written then)
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: LocomoBenchmark TURNS.jsonl QUERIES.jsonl [OUTPUT_DIR]");
        }
        Path turns = Path.of(args[0]);
        Path queries = Path.of(args[1]);
        Path out = Path.of(args.length > 2 ? args[2] : "target/locomo");
        Files.createDirectories(out);
        Api api = Api.postgres();
        String run = Long.toString(System.currentTimeMillis(), 36);

        // 1. Ingest, one conversation (all its sessions) per import call.
        Map<String, StringBuilder> byConversation = new LinkedHashMap<>();
        int turnsTotal = 0;
        for (Map<String, Object> line : Locomo.importLines(turns)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> key = (Map<String, Object>) line.get("key");
            String conv = (String) key.get("userId");
            key.put("userId", scope(run, conv));
            byConversation
                    .computeIfAbsent(conv, c -> new StringBuilder())
                    .append(Api.JSON.writeValueAsString(line))
                    .append('\n');
            turnsTotal++;
        }
        long ingestStart = System.nanoTime();
        for (Map.Entry<String, StringBuilder> e : byConversation.entrySet()) {
            Api.Response r = api.postRaw("/import", e.getValue().toString(), "application/x-ndjson");
            if (r.status() != 200 || !r.json().get("errors").isEmpty()) {
                throw new IllegalStateException("import of " + e.getKey() + " failed: " + r.status() + " " + r.body());
            }
        }
        double importSeconds = (System.nanoTime() - ingestStart) / 1e9;
        // Messages are embedded in the background; ingest is done when every message has its vector.
        org.agentmemory.it.support.Embeddings.awaitVectors(api, java.time.Duration.ofMinutes(15));
        // Under outbox polling the last vectors reach the index a moment after they are stored
        // (bench.locomo.settle-ms).
        Thread.sleep(Long.getLong("bench.locomo.settle-ms", 0));
        double ingestSeconds = (System.nanoTime() - ingestStart) / 1e9;
        System.out.printf(
                Locale.ROOT,
                "Import (full-text searchable): %.1f s; with every vector: %.1f s%n",
                importSeconds,
                ingestSeconds);
        long utterances = Files.readAllLines(turns, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank())
                .count();

        // 2. Recall.
        List<JsonNode> questions = new ArrayList<>();
        for (String line : Files.readAllLines(queries, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                questions.add(Api.JSON.readTree(line));
            }
        }
        // Warm-up (JIT, model, index readers): not measured.
        for (int i = 0; i < Math.min(50, questions.size()); i++) {
            for (String mode : MODES) {
                search(api, run, questions.get(i), mode);
            }
        }
        Map<String, long[]> latencies = new LinkedHashMap<>();
        Map<String, Map<String, List<String>>> runs = new LinkedHashMap<>();
        for (String mode : MODES) {
            long[] times = new long[questions.size()];
            Map<String, List<String>> ranked = new LinkedHashMap<>();
            for (int i = 0; i < questions.size(); i++) {
                long start = System.nanoTime();
                List<String> ids = search(api, run, questions.get(i), mode);
                times[i] = System.nanoTime() - start;
                ranked.put(questions.get(i).get("qid").asText(), ids);
            }
            Arrays.sort(times);
            latencies.put(mode, times);
            runs.put(mode, ranked);
            writeRun(out.resolve("locomo-run-" + mode + ".jsonl"), ranked);
        }

        // 3. Report.
        StringBuilder report = new StringBuilder();
        report.append("# LoCoMo conversation recall (")
                .append(byConversation.size())
                .append(" conversations, ")
                .append(utterances)
                .append(" utterances as ")
                .append(turnsTotal)
                .append(" turns, ")
                .append(questions.size())
                .append(" questions)\n\n");
        report.append(String.format(
                Locale.ROOT,
                "Ingest through POST /import (normalize, count, embed, index): %.1f s," + " %.0f messages/s%n%n",
                ingestSeconds,
                utterances / ingestSeconds));
        report.append("| mode | R@5 (1-4) | R@10 (1-4) | NDCG@10 (1-4) | R@5 (1-5) | R@10 (1-5) | NDCG@10 (1-5) |"
                + " p50 ms | p95 ms |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String mode : MODES) {
            double[] headline = metrics(runs.get(mode), questions, false);
            double[] all = metrics(runs.get(mode), questions, true);
            long[] t = latencies.get(mode);
            report.append(String.format(
                    Locale.ROOT,
                    "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f |%n",
                    mode,
                    headline[0],
                    headline[1],
                    headline[2],
                    all[0],
                    all[1],
                    all[2],
                    t[t.length / 2] / 1e6,
                    t[(int) Math.ceil(t.length * 0.95) - 1] / 1e6));
        }
        report.append("\nReference: the scorer's BM25 baseline, R@10 0.535 (categories 1-4).\n");
        Files.writeString(out.resolve("locomo-report.md"), report.toString(), StandardCharsets.UTF_8);
        System.out.println(report);
        score(queries, turns, out);
    }

    private static String scope(String run, String conversation) {
        return "bench-" + run + "-" + conversation;
    }

    private static List<String> search(Api api, String run, JsonNode question, String mode) {
        Api.Response r = api.post(
                "/messages/search",
                Api.obj(
                        "userId",
                        scope(run, question.get("conv_id").asText()),
                        "chatbotId",
                        "locomo",
                        "query",
                        question.get("question").asText(),
                        "mode",
                        mode,
                        "topK",
                        TOP_K));
        if (r.status() != 200) {
            throw new IllegalStateException("search failed: " + r.status() + " " + r.body());
        }
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode hit : r.json().get("hits")) {
            if (hit.hasNonNull("externalId")) {
                ids.add(hit.get("externalId").asText());
            }
        }
        return new ArrayList<>(ids);
    }

    private static void writeRun(Path file, Map<String, List<String>> ranked) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, List<String>> e : ranked.entrySet()) {
            text.append(Api.JSON.writeValueAsString(Map.of("qid", e.getKey(), "ranked", e.getValue())))
                    .append('\n');
        }
        Files.writeString(file, text.toString(), StandardCharsets.UTF_8);
    }

    /** @return mean {R@5, R@10, NDCG@10}, as locomo_eval.py defines them */
    private static double[] metrics(Map<String, List<String>> ranked, List<JsonNode> questions, boolean adversarial) {
        double r5 = 0;
        double r10 = 0;
        double ndcg = 0;
        int n = 0;
        for (JsonNode q : questions) {
            if (!adversarial && q.get("adversarial").asBoolean()) {
                continue;
            }
            List<String> gold = new ArrayList<>();
            q.get("evidence").forEach(g -> gold.add(g.asText()));
            if (gold.isEmpty()) {
                continue;
            }
            List<String> r = ranked.getOrDefault(q.get("qid").asText(), List.of());
            r5 += recall(r, gold, 5);
            r10 += recall(r, gold, 10);
            double dcg = 0;
            for (int i = 0; i < Math.min(10, r.size()); i++) {
                if (gold.contains(r.get(i))) {
                    dcg += 1 / (Math.log(i + 2) / Math.log(2));
                }
            }
            double idcg = 0;
            Set<String> distinct = new LinkedHashSet<>(gold);
            for (int i = 0; i < Math.min(distinct.size(), 10); i++) {
                idcg += 1 / (Math.log(i + 2) / Math.log(2));
            }
            ndcg += idcg == 0 ? 0 : dcg / idcg;
            n++;
        }
        return new double[] {r5 / n, r10 / n, ndcg / n};
    }

    private static double recall(List<String> ranked, List<String> gold, int k) {
        Set<String> top = new LinkedHashSet<>(ranked.subList(0, Math.min(k, ranked.size())));
        long found = gold.stream().filter(top::contains).count();
        return (double) found / gold.size();
    }

    /** Scores the run files with the benchmark's own scorer when Python and the scorer are available. */
    private static void score(Path queries, Path turns, Path out) throws IOException, InterruptedException {
        Path eval = Path.of(System.getProperty(
                "bench.eval", queries.resolveSibling("locomo_eval.py").toString()));
        if (!Files.isReadable(eval)) {
            System.out.println("locomo_eval.py not found at " + eval + "; set -Dbench.eval to score with it");
            return;
        }
        for (String mode : MODES) {
            Path md = out.resolve("locomo-scored-" + mode + ".md");
            Process p = new ProcessBuilder(
                            "python3",
                            eval.toString(),
                            "--turns",
                            turns.toString(),
                            "--queries",
                            queries.toString(),
                            "--score",
                            out.resolve("locomo-run-" + mode + ".jsonl").toString(),
                            "--label",
                            mode,
                            "--out",
                            md.toString())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = p.waitFor();
            System.out.println("## locomo_eval.py --score (" + mode + "), exit " + exit + "\n");
            System.out.println(output);
        }
    }
}
