package org.agentmemory.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

import org.agentmemory.api.conversation.InvocationStatus;
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
    private static final String ESC = "\u001b";

    /** What a document is in a turn, which decides its normalization. */
    private enum Kind {
        LOGS(Normalizer::normalizeOutput),
        JSON(Normalizer::normalizeOutput),
        PROSE(Normalizer::normalizeText),
        TRACEBACKS(Normalizer::normalizeError);

        final UnaryOperator<String> normalization;

        Kind(UnaryOperator<String> normalization) {
            this.normalization = normalization;
        }
    }

    private record Document(Kind kind, String text, long utf8Bytes) {
    }

    /** Sink for results, printed at the end so the JIT cannot drop the work. */
    private static long checksum;

    private WritePathTextBenchmark() {
    }

    /**
     * Builds the corpus, warms up, measures and prints the report to standard output.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        Encoding o200k = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        TokenCounter counter = TokenCounters.forName("o200k_base");
        Corpus corpus = new Corpus(new Random(20260501L));
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
            sum += encoding.countTokensOrdinary(turn.userMessage()) + encoding.countTokensOrdinary(turn.assistantResponse());
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

    private static void report(List<Document> documents, Map<Kind, List<Document>> byKind, List<TurnRecord> turns,
            List<Measurement> measurements) {
        long totalBytes = documents.stream().mapToLong(Document::utf8Bytes).sum();
        System.out.printf(Locale.ROOT, "Write-path text benchmark: Stage 0 normalization + o200k_base counting (jtokkit)%n");
        System.out.printf(Locale.ROOT, "Java %s, %s, %d CPUs, max heap %d MB%n", System.getProperty("java.version"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);
        System.out.printf(Locale.ROOT, "Corpus: %d documents, %.2f MB UTF-8; %d turns. %d warm-up + %d measured rounds,"
                + " median per pass, single thread.%n%n", documents.size(), totalBytes / 1e6, turns.size(),
                WARMUP_ROUNDS, MEASURED_ROUNDS);
        System.out.printf(Locale.ROOT, "%-11s %5s %7s %12s %12s %16s %8s%n", "kind", "docs", "MB", "raw count",
                "normalize", "normalize+count", "ratio");

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
        System.out.printf(Locale.ROOT, "%nWhole turns, TurnPreparer.prepare (normalize + count + offload > 2000 tokens"
                + " + recount) vs raw counting of the turn texts:%n");
        System.out.printf(Locale.ROOT, "%-11s %5d %7.2f %7.1f MB/s %12s %11.1f MB/s %7.2fx%n", "turns", turns.size(),
                turnBytes / 1e6, turnBytes / 1e6 / turnRaw, "", turnBytes / 1e6 / turnPrepare, turnPrepare / turnRaw);

        double ratio = allBoth / allRaw;
        System.out.printf(Locale.ROOT, "%nratio = time(normalize+count) / time(raw count) of the same raw text;"
                + " normalized text is shorter (ANSI, JSON whitespace, traceback frames removed), so counting it is"
                + " cheaper.%n");
        System.out.printf(Locale.ROOT, "Target normalize+count <= 2.00x raw count: %.2fx -> %s%n", ratio,
                ratio <= 2.0 ? "MET" : "NOT MET");
        System.out.printf(Locale.ROOT, "(checksum %d)%n", checksum);
    }

    private static void row(String name, int docs, long bytes, double raw, double norm, double both) {
        double mb = bytes / 1e6;
        System.out.printf(Locale.ROOT, "%-11s %5d %7.2f %7.1f MB/s %7.1f MB/s %11.1f MB/s %7.2fx%n", name, docs, mb,
                mb / raw, mb / norm, mb / both, both / raw);
    }

    private static Measurement find(List<Measurement> measurements, String name) {
        return measurements.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
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

    /** A seeded generator of realistic, messy write-path text. */
    private static final class Corpus {

        private static final String[] WORDS = ("the a memory agent turn tool output token budget conversation user"
                + " assistant request response service deploy cluster index search result error retry timeout cache"
                + " session window context history compaction summary latency throughput database query schema"
                + " version release build test failure success configuration value default limit threshold record"
                + " customer order invoice shipment warehouse report analysis weather forecast temperature city").split(" ");
        private static final String[] CJK = {"\u6771\u4eac\u306e\u5929\u6c17\u306f\u6674\u308c\u3067\u3059\u3002",
                "\u4f1a\u8b70\u306f\u5348\u5f8c\u4e09\u6642\u306b\u59cb\u307e\u308a\u307e\u3059\u3002",
                "\u8fd9\u662f\u4e00\u4e2a\u6d4b\u8bd5\u53e5\u5b50\uff0c\u7528\u4e8e\u8ba1\u7b97\u4ee4\u724c\u3002",
                "\ud55c\uad6d\uc5b4 \ubb38\uc7a5\ub3c4 \ud3ec\ud568\ub429\ub2c8\ub2e4."};
        private static final String[] EMOJI = {"\ud83d\ude80", "\u2705", "\ud83d\udd25", "\ud83d\udc4d",
                "\ud83d\udc68\u200d\ud83d\udcbb", "\ud83c\uddeb\ud83c\uddf7"};
        private static final String[] DECOMPOSED = {"cafe\u0301", "nai\u0308ve", "Zu\u0308rich", "Sa\u0303o Paulo",
                "fac\u0327ade"};
        private static final String[] NAMES = {"Lyon", "M\u00fcnchen", "S\u00e3o Paulo", "\u6771\u4eac", "Zürich",
                "Reykjav\u00edk", "Kraków", "New York"};

        private final Random random;

        Corpus(Random random) {
            this.random = random;
        }

        List<Document> documents() {
            List<Document> documents = new ArrayList<>();
            fill(documents, Kind.LOGS, 1_200_000, 2_000, 40_000);
            fill(documents, Kind.JSON, 1_200_000, 1_000, 60_000);
            fill(documents, Kind.PROSE, 1_000_000, 500, 20_000);
            fill(documents, Kind.TRACEBACKS, 600_000, 800, 8_000);
            return documents;
        }

        /** Turns mixing the documents: prose messages, log/JSON outputs, traceback errors. */
        List<TurnRecord> turns(List<Document> documents) {
            List<String> prose = texts(documents, Kind.PROSE);
            List<String> outputs = new ArrayList<>(texts(documents, Kind.LOGS));
            outputs.addAll(texts(documents, Kind.JSON));
            List<String> errors = texts(documents, Kind.TRACEBACKS);
            List<TurnRecord> turns = new ArrayList<>();
            int o = 0;
            int e = 0;
            for (int i = 0; i + 1 < prose.size(); i += 2) {
                List<ToolInvocationRecord> invocations = new ArrayList<>();
                int count = 1 + random.nextInt(3);
                for (int k = 0; k < count && o < outputs.size(); k++) {
                    boolean failed = random.nextInt(4) == 0 && e < errors.size();
                    invocations.add(new ToolInvocationRecord("tool_" + k, Map.of("query", words(6), "limit", 10),
                            outputs.get(o++), failed ? InvocationStatus.ERROR : InvocationStatus.COMPLETED,
                            failed ? errors.get(e++) : null, 120L, null, null, null));
                }
                turns.add(TurnRecord.of("turn-" + i, prose.get(i), prose.get(i + 1)).withToolInvocations(invocations));
            }
            return turns;
        }

        private static List<String> texts(List<Document> documents, Kind kind) {
            return documents.stream().filter(d -> d.kind() == kind).map(Document::text).toList();
        }

        private void fill(List<Document> documents, Kind kind, long targetBytes, int minChars, int maxChars) {
            long bytes = 0;
            while (bytes < targetBytes) {
                int size = minChars + random.nextInt(maxChars - minChars);
                String text = switch (kind) {
                    case LOGS -> log(size);
                    case JSON -> json(size);
                    case PROSE -> prose(size);
                    case TRACEBACKS -> traceback(size);
                };
                long utf8 = text.getBytes(StandardCharsets.UTF_8).length;
                documents.add(new Document(kind, text, utf8));
                bytes += utf8;
            }
        }

        private String log(int size) {
            StringBuilder out = new StringBuilder(size + 200);
            out.append(ESC).append("]0;mvn -pl memory-ejb test").append('\u0007');
            int line = 0;
            while (out.length() < size) {
                String eol = random.nextInt(3) == 0 ? "\r\n" : "\n";
                switch (random.nextInt(6)) {
                    case 0 -> out.append(ESC).append("[1;34m[INFO]").append(ESC).append("[0m Compiling ")
                            .append(random.nextInt(200)).append(" source files to /app/target/classes").append("   ").append(eol);
                    case 1 -> {
                        for (int p = 0; p <= 100; p += 20) {
                            out.append("Downloading artifact ").append(p).append("% ").append("#".repeat(p / 5)).append('\r');
                        }
                        out.append(eol);
                    }
                    case 2 -> out.append(ESC).append("[33m[WARN]").append(ESC).append("[0m ").append(words(12)).append("\t").append(eol);
                    case 3 -> out.append("2026-05-01T12:").append(10 + random.nextInt(50)).append(":00.").append(100 + random.nextInt(900))
                            .append("Z DEBUG [worker-").append(random.nextInt(8)).append("] ").append(words(10)).append(eol);
                    case 4 -> out.append(ESC).append("[31;1m[ERROR]").append(ESC).append("[m Tests run: ").append(random.nextInt(300))
                            .append(", Failures: ").append(random.nextInt(3)).append(eol).append(eol).append(eol).append(eol).append(eol);
                    default -> out.append(ESC).append("[32m  \u2713 ").append(words(5)).append(ESC).append("[0m (")
                            .append(random.nextInt(900)).append(" ms)").append(eol);
                }
                line++;
            }
            return out.append("BUILD ").append(line % 2 == 0 ? "SUCCESS" : "FAILURE").append('\n').toString();
        }

        private String json(int size) {
            StringBuilder out = new StringBuilder(size + 200);
            out.append("{\n  \"status\": \"ok\",\n  \"total\": ").append(random.nextInt(100_000)).append(",\n  \"results\": [\n");
            boolean first = true;
            while (out.length() < size) {
                if (!first) {
                    out.append(",\n");
                }
                first = false;
                out.append("    {\n      \"name\": \"").append(words(3)).append("\",\n")
                        .append("      \"id\": ").append(random.nextInt(1_000_000)).append(",\n")
                        .append("      \"city\": \"").append(NAMES[random.nextInt(NAMES.length)]).append("\",\n")
                        .append("      \"score\": ").append(random.nextInt(1000) / 100.0).append(",\n")
                        .append("      \"active\": ").append(random.nextBoolean()).append(",\n")
                        .append("      \"tags\": [\"").append(WORDS[random.nextInt(WORDS.length)]).append("\", \"")
                        .append(WORDS[random.nextInt(WORDS.length)]).append("\"],\n")
                        .append("      \"address\": {\"zip\": \"").append(10000 + random.nextInt(89999))
                        .append("\", \"street\": \"").append(words(2)).append("\", \"country\": null}\n    }");
            }
            return out.append("\n  ]\n}\n").toString();
        }

        private String prose(int size) {
            StringBuilder out = new StringBuilder(size + 200);
            boolean crlf = random.nextInt(5) == 0;
            while (out.length() < size) {
                int sentences = 2 + random.nextInt(5);
                for (int s = 0; s < sentences; s++) {
                    int pick = random.nextInt(20);
                    if (pick == 0) {
                        out.append(CJK[random.nextInt(CJK.length)]);
                    } else if (pick == 1) {
                        out.append(EMOJI[random.nextInt(EMOJI.length)]).append(' ');
                    } else if (pick == 2) {
                        out.append("The ").append(DECOMPOSED[random.nextInt(DECOMPOSED.length)]).append(" one. ");
                    } else {
                        String sentence = words(6 + random.nextInt(14));
                        out.append(Character.toUpperCase(sentence.charAt(0))).append(sentence, 1, sentence.length()).append(". ");
                    }
                }
                out.append(random.nextInt(4) == 0 ? "  " : "").append(crlf ? "\r\n\r\n" : "\n\n");
            }
            return out.toString();
        }

        private String traceback(int size) {
            StringBuilder out = new StringBuilder(size + 200);
            out.append("Tool run failed (attempt ").append(1 + random.nextInt(3)).append(")\n");
            boolean colour = random.nextBoolean();
            if (colour) {
                out.append(ESC).append("[31m");
            }
            int chain = 0;
            while (out.length() < size) {
                if (chain++ > 0) {
                    out.append("\nDuring handling of the above exception, another exception occurred:\n\n");
                }
                out.append("Traceback (most recent call last):\n");
                int frames = 3 + random.nextInt(12);
                for (int f = 0; f < frames; f++) {
                    out.append("  File \"/srv/app/").append(WORDS[random.nextInt(WORDS.length)]).append(".py\", line ")
                            .append(1 + random.nextInt(900)).append(", in ").append(WORDS[random.nextInt(WORDS.length)]).append('\n')
                            .append("    result = ").append(WORDS[random.nextInt(WORDS.length)]).append("(").append(words(3).replace(' ', ','))
                            .append(")\n");
                    if (random.nextInt(4) == 0) {
                        out.append("             ^^^^^^^^^^^^^^^\n");
                    }
                }
                out.append(random.nextBoolean() ? "ValueError: " : "KeyError: '").append(words(4)).append('\n');
            }
            if (colour) {
                out.append(ESC).append("[0m");
            }
            return out.toString();
        }

        private String words(int count) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    out.append(' ');
                }
                out.append(WORDS[random.nextInt(WORDS.length)]);
            }
            return out.toString();
        }
    }
}
