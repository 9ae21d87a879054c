package org.agentmemory.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToIntFunction;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;

/**
 * Token counting as the write path does it ({@link TokenCounters#forName} {@code o200k_base}: segments, then
 * words through a bounded table of known words' counts) against raw jtokkit {@code countTokensOrdinary} of
 * the same texts, in one run. Every LoCoMo message's and the turn's count, and the first 50 worst-case texts',
 * are checked equal to jtokkit's (spec §3: exact counts) before they are timed; the program fails if one
 * differs. (The first pass over LoCoMo is timed before that check, on purpose: it must start with an empty
 * table.)
 *
 * <p>Run from the repository root:
 * <pre>
 * mvn -q -pl memory-api,memory-ejb,memory-bench -am package -DskipTests
 * java -Xms1g -Xmx1g -XX:+AlwaysPreTouch \
 *     -cp "memory-bench/target/memory-bench-0.1.0-SNAPSHOT.jar:$(cat memory-bench/target/classpath.txt)" \
 *     org.agentmemory.bench.TokenCountBenchmark ../shared/data/locomo/turns-dev.jsonl
 * </pre>
 *
 * <p>Corpora: every LoCoMo message (real chat), the user message and answer of {@code ConversationBenchmark}'s
 * turn, and a worst case where no word repeats (texts of random hexadecimal ids), which only pays for the table.
 * The first pass over LoCoMo is timed separately: it starts with an empty table, so it shows the cost of the
 * misses. Rates are UTF-8 megabytes per second and microseconds per text, medians of the measured
 * passes. The fixed, pre-touched heap matters on a virtual machine whose memory is backed lazily: there the
 * first touch of each new heap page costs enough to make the timings vary fivefold.
 */
public final class TokenCountBenchmark {

    private static final int WARMUP_PASSES = 10;
    private static final int MEASURED_PASSES = 15;
    private static final String USER_TEXT =
            "Can you check the deployment logs for the payment service and tell me why the"
                    + " last rollout failed? It started around 10:40 and the pods keep restarting.";
    private static final String ASSISTANT_TEXT = "The rollout failed because the new pods could not reach the database:"
            + " the readiness probe timed out after 30 s on every replica. The logs show 'connection refused' from"
            + " the connection pool at startup. The previous version still runs, so traffic is unaffected. I suggest"
            + " checking the new network policy that came with this release; it does not allow egress to port 5432.";

    private static long checksum;

    private TokenCountBenchmark() {}

    /**
     * @param args the LoCoMo turns file (default {@code ../shared/data/locomo/turns-dev.jsonl})
     * @throws Exception if the file cannot be read, or a count differs from jtokkit's
     */
    public static void main(String[] args) throws Exception {
        Path turns = Path.of(args.length > 0 ? args[0] : "../shared/data/locomo/turns-dev.jsonl");
        List<String> locomo = texts(turns);
        Encoding raw = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        TokenCounter counter = TokenCounters.forName(TokenCounters.DEFAULT);

        long coldStart = System.nanoTime();
        for (String text : locomo) {
            checksum += counter.count(text);
        }
        double coldSeconds = (System.nanoTime() - coldStart) / 1e9;

        List<String> turn = List.of(USER_TEXT, ASSISTANT_TEXT);
        long tokens = 0;
        for (List<String> corpus : List.of(locomo, turn)) {
            for (String text : corpus) {
                int exact = raw.countTokensOrdinary(text);
                if (counter.count(text) != exact) {
                    throw new IllegalStateException("count differs from jtokkit's (" + exact + ") for: " + text);
                }
                tokens += exact;
            }
        }

        System.out.printf(
                Locale.ROOT,
                "Token count benchmark (o200k_base), %d processors; every count checked equal to"
                        + " jtokkit's (%d texts, %d tokens)%n%n",
                Runtime.getRuntime().availableProcessors(),
                locomo.size() + turn.size(),
                tokens);
        System.out.println("| corpus | texts | UTF-8 bytes | raw jtokkit MB/s | service counter MB/s | raw µs/text"
                + " | service µs/text | speed-up |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        report("LoCoMo messages", locomo, raw::countTokensOrdinary, counter::count);
        List<String> repeated = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            repeated.addAll(turn);
        }
        report("ConversationBenchmark turn (user + assistant)", repeated, raw::countTokensOrdinary, counter::count);
        List<String> unique = uniqueWords(2_000, 40);
        for (String text : unique.subList(0, 50)) {
            if (counter.count(text) != raw.countTokensOrdinary(text)) {
                throw new IllegalStateException("count differs from jtokkit's for: " + text);
            }
        }
        report("worst case: every word new (hex ids)", unique, raw::countTokensOrdinary, counter::count);
        long bytes = utf8Bytes(locomo);
        System.out.printf(
                Locale.ROOT,
                "%nFirst pass over LoCoMo (empty table of words, JIT not yet warm, before any other counting): %.1f MB/s"
                        + " (%.1f µs/text)%n",
                bytes / coldSeconds / 1e6,
                coldSeconds * 1e6 / locomo.size());
        System.out.println("checksum " + checksum);
    }

    private static void report(
            String name, List<String> texts, ToIntFunction<String> raw, ToIntFunction<String> service) {
        double rawSeconds = median(texts, raw);
        double serviceSeconds = median(texts, service);
        long bytes = utf8Bytes(texts);
        System.out.printf(
                Locale.ROOT,
                "| %s | %d | %d | %.1f | %.1f | %.2f | %.2f | %.2f× |%n",
                name,
                texts.size(),
                bytes,
                bytes / rawSeconds / 1e6,
                bytes / serviceSeconds / 1e6,
                rawSeconds * 1e6 / texts.size(),
                serviceSeconds * 1e6 / texts.size(),
                rawSeconds / serviceSeconds);
    }

    private static double median(List<String> texts, ToIntFunction<String> counter) {
        for (int pass = 0; pass < WARMUP_PASSES; pass++) {
            for (String text : texts) {
                checksum += counter.applyAsInt(text);
            }
        }
        double[] seconds = new double[MEASURED_PASSES];
        for (int pass = 0; pass < MEASURED_PASSES; pass++) {
            long start = System.nanoTime();
            for (String text : texts) {
                checksum += counter.applyAsInt(text);
            }
            seconds[pass] = (System.nanoTime() - start) / 1e9;
        }
        Arrays.sort(seconds);
        return seconds[MEASURED_PASSES / 2];
    }

    /**
     * Texts of {@code words} random 12-digit hexadecimal words each after the prefix {@code ids:}, no id repeated: every word misses the table of
     * known words, and the table fills and empties over and over.
     */
    private static List<String> uniqueWords(int texts, int words) {
        java.util.Random random = new java.util.Random(11);
        List<String> out = new ArrayList<>(texts);
        for (int t = 0; t < texts; t++) {
            StringBuilder text = new StringBuilder("ids:");
            for (int w = 0; w < words; w++) {
                text.append(' ').append(String.format(Locale.ROOT, "%012x", random.nextLong() & 0xffffffffffffL));
            }
            out.add(text.toString());
        }
        return out;
    }

    private static long utf8Bytes(List<String> texts) {
        return texts.stream()
                .mapToLong(t -> t.getBytes(StandardCharsets.UTF_8).length)
                .sum();
    }

    private static List<String> texts(Path turns) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<String> texts = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(turns, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.isBlank()) {
                    JsonNode text = json.readTree(line).get("text");
                    if (text != null && !text.isNull() && !text.asText().isEmpty()) {
                        texts.add(text.asText());
                    }
                }
            }
        }
        return texts;
    }
}
