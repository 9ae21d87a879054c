package org.agentmemory.bench;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.control.Normalizer;
import org.agentmemory.conversation.control.PreparedTurn;
import org.agentmemory.conversation.control.TurnPreparer;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;

/**
 * Throughput of the write path's text work (spec §2 normalization, §3 token counting, §6 offload) next to raw
 * jtokkit {@code o200k_base} counting of the same text, in the same run. Target: normalization + counting
 * takes at most 2× the time of raw counting.
 *
 * <p>Run from the repository root (the reactor resolves memory-ejb from this worktree, never from ~/.m2):
 * <pre>
 * mvn -q -pl memory-api,memory-ejb,memory-bench -am package -DskipTests \
 *     dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
 * java -cp memory-bench/target/classes:$(cat memory-bench/target/classpath.txt) \
 *     org.agentmemory.bench.WritePathTextBenchmark
 * </pre>
 * ({@code mvn -pl memory-bench exec:java} alone would load a stale memory-ejb from the shared local
 * repository, and {@code exec:java} with {@code -am} runs in every module of the reactor.)
 *
 * <p>The corpus is generated (seeded, about 4 MB of UTF-8): ANSI-coloured build logs with CR progress bars
 * and CRLF, pretty-printed JSON tool outputs with non-ASCII text, prose with CJK, emoji and decomposed
 * accents, and Python tracebacks, some chained. Each kind goes through the normalization the write path
 * applies to it: tool outputs {@link Normalizer#normalizeOutput}, messages {@link Normalizer#normalizeText},
 * errors {@link Normalizer#normalizeError}. Every throughput is the raw corpus' UTF-8 bytes divided by the
 * median time of one pass, so the columns compare directly.
 */
public final class WritePathTextBenchmark {

    private static final int WARMUP_ROUNDS = 5;
    private static final int MEASURED_ROUNDS = 9;
    static final String ESC = "\u001b";

    /** What a document is in a turn, which decides its normalization. */
    enum Kind {
        LOGS(Normalizer::normalizeOutput),
        JSON(Normalizer::normalizeOutput),
        PROSE(Normalizer::normalizeText),
        TRACEBACKS(Normalizer::normalizeError);

        final UnaryOperator<String> normalization;

        Kind(UnaryOperator<String> normalization) {
            this.normalization = normalization;
        }
    }

    record Document(Kind kind, String text, long utf8Bytes) {}

    /** Sink for results, printed at the end so the JIT cannot drop the work. */
    private static long checksum;

    private WritePathTextBenchmark() {}

    /**
     * Builds the corpus, warms up, measures and prints the report to standard output.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        Encoding o200k = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        TokenCounter counter = TokenCounters.forName("o200k_base");
        WritePathCorpus corpus = new WritePathCorpus(new Random(20260501L));
        List<Document> documents = corpus.documents();
        List<TurnRecord> turns = corpus.turns(documents);

        Map<Kind, List<Document>> byKind = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            byKind.put(kind, documents.stream().filter(d -> d.kind() == kind).toList());
        }

        // One timed pass = every measurement over every kind; passes rotate their order to spread drift.
        List<Measurement> measurements = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            List<Document> docs = byKind.get(kind);
            measurements.add(new Measurement(kind + "/raw", () -> rawCount(docs, o200k)));
            measurements.add(new Measurement(kind + "/norm", () -> normalizeOnly(docs)));
            measurements.add(new Measurement(kind + "/norm+count", () -> normalizeAndCount(docs, counter)));
        }
        measurements.add(new Measurement("turns/raw", () -> rawCountTurns(turns, o200k)));
        measurements.add(new Measurement("turns/prepare", () -> prepareTurns(turns, counter)));

        for (int round = 0; round < WARMUP_ROUNDS + MEASURED_ROUNDS; round++) {
            for (int i = 0; i < measurements.size(); i++) {
                Measurement m = measurements.get((i + round) % measurements.size());
                long start = System.nanoTime();
                m.work.run();
                long elapsed = System.nanoTime() - start;
                if (round >= WARMUP_ROUNDS) {
                    m.nanos[round - WARMUP_ROUNDS] = elapsed;
                }
            }
        }
        report(documents, byKind, turns, measurements);
    }

    private static void rawCount(List<Document> docs, Encoding encoding) {
        long sum = 0;
        for (Document doc : docs) {
            sum += encoding.countTokensOrdinary(doc.text());
        }
        checksum += sum;
    }

    private static void normalizeOnly(List<Document> docs) {
        long sum = 0;
        for (Document doc : docs) {
            sum += doc.kind().normalization.apply(doc.text()).length();
        }
        checksum += sum;
    }

    private static void normalizeAndCount(List<Document> docs, TokenCounter counter) {
        long sum = 0;
        for (Document doc : docs) {
            sum += counter.count(doc.kind().normalization.apply(doc.text()));
        }
        checksum += sum;
    }

    /** The baseline for whole turns: raw counting of every text the turn holds. */
    private static void rawCountTurns(List<TurnRecord> turns, Encoding encoding) {
        long sum = 0;
        for (TurnRecord turn : turns) {
            sum += encoding.countTokensOrdinary(turn.userMessage())
                    + encoding.countTokensOrdinary(turn.assistantResponse());
            for (ToolInvocationRecord invocation : turn.toolInvocations()) {
                sum += invocation.output() == null ? 0 : encoding.countTokensOrdinary(invocation.output());
                sum += invocation.error() == null ? 0 : encoding.countTokensOrdinary(invocation.error());
            }
        }
        checksum += sum;
    }

    private static void prepareTurns(List<TurnRecord> turns, TokenCounter counter) {
        long sum = 0;
        for (TurnRecord turn : turns) {
            PreparedTurn prepared = TurnPreparer.prepare(turn, counter);
            sum += prepared.turn().tokenCount().total() + prepared.omissions().size();
        }
        checksum += sum;
    }

    private static final class Measurement {
        final String name;
        final Runnable work;
        final long[] nanos = new long[MEASURED_ROUNDS];

        Measurement(String name, Runnable work) {
            this.name = name;
            this.work = work;
        }

        double medianSeconds() {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            return sorted[sorted.length / 2] / 1e9;
        }
    }

    private static void report(
            List<Document> documents,
            Map<Kind, List<Document>> byKind,
            List<TurnRecord> turns,
            List<Measurement> measurements) {
        long totalBytes = documents.stream().mapToLong(Document::utf8Bytes).sum();
        System.out.printf(
                Locale.ROOT, "Write-path text benchmark: Stage 0 normalization + o200k_base counting (jtokkit)%n");
        System.out.printf(
                Locale.ROOT,
                "Java %s, %s, %d CPUs, max heap %d MB%n",
                System.getProperty("java.version"),
                System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);
        System.out.printf(
                Locale.ROOT,
                "Corpus: %d documents, %.2f MB UTF-8; %d turns. %d warm-up + %d measured rounds,"
                        + " median per pass, single thread.%n%n",
                documents.size(),
                totalBytes / 1e6,
                turns.size(),
                WARMUP_ROUNDS,
                MEASURED_ROUNDS);
        System.out.printf(
                Locale.ROOT,
                "%-11s %5s %7s %12s %12s %16s %8s%n",
                "kind",
                "docs",
                "MB",
                "raw count",
                "normalize",
                "normalize+count",
                "ratio");

        double allRaw = 0;
        double allNorm = 0;
        double allBoth = 0;
        for (Kind kind : Kind.values()) {
            List<Document> docs = byKind.get(kind);
            long bytes = docs.stream().mapToLong(Document::utf8Bytes).sum();
            double raw = find(measurements, kind + "/raw").medianSeconds();
            double norm = find(measurements, kind + "/norm").medianSeconds();
            double both = find(measurements, kind + "/norm+count").medianSeconds();
            allRaw += raw;
            allNorm += norm;
            allBoth += both;
            row(kind.name().toLowerCase(Locale.ROOT), docs.size(), bytes, raw, norm, both);
        }
        row("all", documents.size(), totalBytes, allRaw, allNorm, allBoth);

        long turnBytes = turnBytes(turns);
        double turnRaw = find(measurements, "turns/raw").medianSeconds();
        double turnPrepare = find(measurements, "turns/prepare").medianSeconds();
        System.out.printf(
                Locale.ROOT,
                "%nWhole turns, TurnPreparer.prepare (normalize + count + offload > 2000 tokens"
                        + " + recount) vs raw counting of the turn texts:%n");
        System.out.printf(
                Locale.ROOT,
                "%-11s %5d %7.2f %7.1f MB/s %12s %11.1f MB/s %7.2fx%n",
                "turns",
                turns.size(),
                turnBytes / 1e6,
                turnBytes / 1e6 / turnRaw,
                "",
                turnBytes / 1e6 / turnPrepare,
                turnPrepare / turnRaw);

        double ratio = allBoth / allRaw;
        System.out.printf(
                Locale.ROOT,
                "%nratio = time(normalize+count) / time(raw count) of the same raw text;"
                        + " normalized text is shorter (ANSI, JSON whitespace, traceback frames removed), so counting it is"
                        + " cheaper.%n");
        System.out.printf(
                Locale.ROOT,
                "Target normalize+count <= 2.00x raw count: %.2fx -> %s%n",
                ratio,
                ratio <= 2.0 ? "MET" : "NOT MET");
        System.out.printf(Locale.ROOT, "(checksum %d)%n", checksum);
    }

    private static void row(String name, int docs, long bytes, double raw, double norm, double both) {
        double mb = bytes / 1e6;
        System.out.printf(
                Locale.ROOT,
                "%-11s %5d %7.2f %7.1f MB/s %7.1f MB/s %11.1f MB/s %7.2fx%n",
                name,
                docs,
                mb,
                mb / raw,
                mb / norm,
                mb / both,
                both / raw);
    }

    private static Measurement find(List<Measurement> measurements, String name) {
        return measurements.stream()
                .filter(m -> m.name.equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static long turnBytes(List<TurnRecord> turns) {
        long bytes = 0;
        for (TurnRecord turn : turns) {
            bytes += utf8(turn.userMessage()) + utf8(turn.assistantResponse());
            for (ToolInvocationRecord invocation : turn.toolInvocations()) {
                bytes += utf8(invocation.output()) + utf8(invocation.error());
            }
        }
        return bytes;
    }

    private static long utf8(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }
}
