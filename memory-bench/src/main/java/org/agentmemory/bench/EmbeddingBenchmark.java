package org.agentmemory.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.agentmemory.platform.embedding.InProcessEmbeddingModel;

/**
 * Throughput of in-process embedding (issue 5: ingest of at least 200 episodes/s including embedding) for
 * each model variant and ONNX Runtime thread count, on real conversation messages: the LoCoMo turns file's
 * {@code index_text} values. Reports texts per second of wall time and milliseconds of process CPU per text
 * (how much of the machine embedding takes from request threads), one caller thread, after a warm-up.
 *
 * <p>Run from the repository root:
 * <pre>
 * mvn -q -pl memory-api,memory-ejb,memory-bench -am package -DskipTests
 * java -cp "memory-bench/target/memory-bench-0.1.0-SNAPSHOT.jar:$(cat memory-bench/target/classpath.txt)" \
 *     org.agentmemory.bench.EmbeddingBenchmark ../shared/data/locomo/turns-dev.jsonl [texts]
 * </pre>
 */
public final class EmbeddingBenchmark {

    private static final int WARMUP_TEXTS = 200;

    private EmbeddingBenchmark() {}

    /**
     * @param args the LoCoMo turns file (JSONL with {@code index_text} or {@code text}); optionally how many
     *             texts to embed per configuration (default 1,000)
     * @throws Exception if the file cannot be read
     */
    public static void main(String[] args) throws Exception {
        Path turns = Path.of(args.length > 0 ? args[0] : "../shared/data/locomo/turns-dev.jsonl");
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        List<String> texts = texts(turns, count + WARMUP_TEXTS);
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(
                Locale.ROOT,
                "Embedding benchmark: %d LoCoMo messages (mean %.0f chars), %d processors%n%n",
                texts.size() - WARMUP_TEXTS,
                texts.stream().mapToInt(String::length).average().orElse(0),
                cores);
        System.out.println("| model | ONNX Runtime threads | texts/s | CPU ms per text | p50 ms | p99 ms |");
        System.out.println("|---|---|---|---|---|---|");
        long checksum = 0;
        for (InProcessEmbeddingModel base : List.of(
                InProcessEmbeddingModel.MINILM,
                InProcessEmbeddingModel.MINILM_QUANTIZED,
                InProcessEmbeddingModel.BGE_SMALL_QUANTIZED)) {
            for (int threads : new int[] {0, 1}) {
                InProcessEmbeddingModel model = base.withThreads(threads);
                for (String text : texts.subList(0, WARMUP_TEXTS)) {
                    checksum += Float.floatToIntBits(model.embed(text)[0]);
                }
                List<String> measured = texts.subList(WARMUP_TEXTS, texts.size());
                long[] times = new long[measured.size()];
                long cpuBefore = processCpuNanos();
                long start = System.nanoTime();
                for (int i = 0; i < measured.size(); i++) {
                    long t0 = System.nanoTime();
                    checksum += Float.floatToIntBits(model.embed(measured.get(i))[1]);
                    times[i] = System.nanoTime() - t0;
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                double cpuMs = (processCpuNanos() - cpuBefore) / 1e6;
                java.util.Arrays.sort(times);
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %s | %.0f | %.2f | %.2f | %.2f |%n",
                        model.name(),
                        threads == 0 ? "default" : Integer.toString(threads),
                        measured.size() / seconds,
                        cpuMs / measured.size(),
                        times[times.length / 2] / 1e6,
                        times[(int) Math.ceil(times.length * 0.99) - 1] / 1e6);
            }
        }
        System.out.println("\nchecksum " + checksum);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static List<String> texts(Path turns, int max) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<String> texts = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(turns, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null && texts.size() < max) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode turn = json.readTree(line);
                JsonNode text = turn.hasNonNull("index_text") ? turn.get("index_text") : turn.get("text");
                if (text != null && !text.asText().isBlank()) {
                    texts.add(text.asText());
                }
            }
        }
        if (texts.size() < max) {
            throw new IllegalArgumentException(turns + " holds " + texts.size() + " texts; " + max + " needed");
        }
        return texts;
    }
}
