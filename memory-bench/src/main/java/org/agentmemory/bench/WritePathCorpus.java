package org.agentmemory.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;

/** A seeded generator of realistic, messy write-path text. */
final class WritePathCorpus {

    private static final String[] WORDS = ("the a memory agent turn tool output token budget conversation user"
                    + " assistant request response service deploy cluster index search result error retry timeout cache"
                    + " session window context history compaction summary latency throughput database query schema"
                    + " version release build test failure success configuration value default limit threshold record"
                    + " customer order invoice shipment warehouse report analysis weather forecast temperature city")
            .split(" ");
    private static final String[] CJK = {
        "\u6771\u4eac\u306e\u5929\u6c17\u306f\u6674\u308c\u3067\u3059\u3002",
        "\u4f1a\u8b70\u306f\u5348\u5f8c\u4e09\u6642\u306b\u59cb\u307e\u308a\u307e\u3059\u3002",
        "\u8fd9\u662f\u4e00\u4e2a\u6d4b\u8bd5\u53e5\u5b50\uff0c\u7528\u4e8e\u8ba1\u7b97\u4ee4\u724c\u3002",
        "\ud55c\uad6d\uc5b4 \ubb38\uc7a5\ub3c4 \ud3ec\ud568\ub429\ub2c8\ub2e4."
    };
    private static final String[] EMOJI = {
        "\ud83d\ude80",
        "\u2705",
        "\ud83d\udd25",
        "\ud83d\udc4d",
        "\ud83d\udc68\u200d\ud83d\udcbb",
        "\ud83c\uddeb\ud83c\uddf7"
    };
    private static final String[] DECOMPOSED = {
        "cafe\u0301", "nai\u0308ve", "Zu\u0308rich", "Sa\u0303o Paulo", "fac\u0327ade"
    };
    private static final String[] NAMES = {
        "Lyon", "M\u00fcnchen", "S\u00e3o Paulo", "\u6771\u4eac", "Zürich", "Reykjav\u00edk", "Kraków", "New York"
    };

    private final Random random;

    WritePathCorpus(Random random) {
        this.random = random;
    }

    List<WritePathTextBenchmark.Document> documents() {
        List<WritePathTextBenchmark.Document> documents = new ArrayList<>();
        fill(documents, WritePathTextBenchmark.Kind.LOGS, 1_200_000, 2_000, 40_000);
        fill(documents, WritePathTextBenchmark.Kind.JSON, 1_200_000, 1_000, 60_000);
        fill(documents, WritePathTextBenchmark.Kind.PROSE, 1_000_000, 500, 20_000);
        fill(documents, WritePathTextBenchmark.Kind.TRACEBACKS, 600_000, 800, 8_000);
        return documents;
    }

    /** Turns mixing the documents: prose messages, log/JSON outputs, traceback errors. */
    List<TurnRecord> turns(List<WritePathTextBenchmark.Document> documents) {
        List<String> prose = texts(documents, WritePathTextBenchmark.Kind.PROSE);
        List<String> outputs = new ArrayList<>(texts(documents, WritePathTextBenchmark.Kind.LOGS));
        outputs.addAll(texts(documents, WritePathTextBenchmark.Kind.JSON));
        List<String> errors = texts(documents, WritePathTextBenchmark.Kind.TRACEBACKS);
        List<TurnRecord> turns = new ArrayList<>();
        int o = 0;
        int e = 0;
        for (int i = 0; i + 1 < prose.size(); i += 2) {
            List<ToolInvocationRecord> invocations = new ArrayList<>();
            int count = 1 + random.nextInt(3);
            for (int k = 0; k < count && o < outputs.size(); k++) {
                boolean failed = random.nextInt(4) == 0 && e < errors.size();
                invocations.add(new ToolInvocationRecord(
                        "tool_" + k,
                        Map.of("query", words(6), "limit", 10),
                        outputs.get(o++),
                        failed ? InvocationStatus.ERROR : InvocationStatus.COMPLETED,
                        failed ? errors.get(e++) : null,
                        120L,
                        null,
                        null,
                        null));
            }
            turns.add(TurnRecord.of("turn-" + i, prose.get(i), prose.get(i + 1)).withToolInvocations(invocations));
        }
        return turns;
    }

    private static List<String> texts(
            List<WritePathTextBenchmark.Document> documents, WritePathTextBenchmark.Kind kind) {
        return documents.stream()
                .filter(d -> d.kind() == kind)
                .map(WritePathTextBenchmark.Document::text)
                .toList();
    }

    private void fill(
            List<WritePathTextBenchmark.Document> documents,
            WritePathTextBenchmark.Kind kind,
            long targetBytes,
            int minChars,
            int maxChars) {
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
            documents.add(new WritePathTextBenchmark.Document(kind, text, utf8));
            bytes += utf8;
        }
    }

    private String log(int size) {
        StringBuilder out = new StringBuilder(size + 200);
        out.append(WritePathTextBenchmark.ESC)
                .append("]0;mvn -pl memory-ejb test")
                .append('\u0007');
        int line = 0;
        while (out.length() < size) {
            String eol = random.nextInt(3) == 0 ? "\r\n" : "\n";
            switch (random.nextInt(6)) {
                case 0 ->
                    out.append(WritePathTextBenchmark.ESC)
                            .append("[1;34m[INFO]")
                            .append(WritePathTextBenchmark.ESC)
                            .append("[0m Compiling ")
                            .append(random.nextInt(200))
                            .append(" source files to /app/target/classes")
                            .append("   ")
                            .append(eol);
                case 1 -> {
                    for (int p = 0; p <= 100; p += 20) {
                        out.append("Downloading artifact ")
                                .append(p)
                                .append("% ")
                                .append("#".repeat(p / 5))
                                .append('\r');
                    }
                    out.append(eol);
                }
                case 2 ->
                    out.append(WritePathTextBenchmark.ESC)
                            .append("[33m[WARN]")
                            .append(WritePathTextBenchmark.ESC)
                            .append("[0m ")
                            .append(words(12))
                            .append("\t")
                            .append(eol);
                case 3 ->
                    out.append("2026-05-01T12:")
                            .append(10 + random.nextInt(50))
                            .append(":00.")
                            .append(100 + random.nextInt(900))
                            .append("Z DEBUG [worker-")
                            .append(random.nextInt(8))
                            .append("] ")
                            .append(words(10))
                            .append(eol);
                case 4 ->
                    out.append(WritePathTextBenchmark.ESC)
                            .append("[31;1m[ERROR]")
                            .append(WritePathTextBenchmark.ESC)
                            .append("[m Tests run: ")
                            .append(random.nextInt(300))
                            .append(", Failures: ")
                            .append(random.nextInt(3))
                            .append(eol)
                            .append(eol)
                            .append(eol)
                            .append(eol)
                            .append(eol);
                default ->
                    out.append(WritePathTextBenchmark.ESC)
                            .append("[32m  \u2713 ")
                            .append(words(5))
                            .append(WritePathTextBenchmark.ESC)
                            .append("[0m (")
                            .append(random.nextInt(900))
                            .append(" ms)")
                            .append(eol);
            }
            line++;
        }
        return out.append("BUILD ")
                .append(line % 2 == 0 ? "SUCCESS" : "FAILURE")
                .append('\n')
                .toString();
    }

    private String json(int size) {
        StringBuilder out = new StringBuilder(size + 200);
        out.append("{\n  \"status\": \"ok\",\n  \"total\": ")
                .append(random.nextInt(100_000))
                .append(",\n  \"results\": [\n");
        boolean first = true;
        while (out.length() < size) {
            if (!first) {
                out.append(",\n");
            }
            first = false;
            out.append("    {\n      \"name\": \"")
                    .append(words(3))
                    .append("\",\n")
                    .append("      \"id\": ")
                    .append(random.nextInt(1_000_000))
                    .append(",\n")
                    .append("      \"city\": \"")
                    .append(NAMES[random.nextInt(NAMES.length)])
                    .append("\",\n")
                    .append("      \"score\": ")
                    .append(random.nextInt(1000) / 100.0)
                    .append(",\n")
                    .append("      \"active\": ")
                    .append(random.nextBoolean())
                    .append(",\n")
                    .append("      \"tags\": [\"")
                    .append(WORDS[random.nextInt(WORDS.length)])
                    .append("\", \"")
                    .append(WORDS[random.nextInt(WORDS.length)])
                    .append("\"],\n")
                    .append("      \"address\": {\"zip\": \"")
                    .append(10000 + random.nextInt(89999))
                    .append("\", \"street\": \"")
                    .append(words(2))
                    .append("\", \"country\": null}\n    }");
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
                    out.append("The ")
                            .append(DECOMPOSED[random.nextInt(DECOMPOSED.length)])
                            .append(" one. ");
                } else {
                    String sentence = words(6 + random.nextInt(14));
                    out.append(Character.toUpperCase(sentence.charAt(0)))
                            .append(sentence, 1, sentence.length())
                            .append(". ");
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
            out.append(WritePathTextBenchmark.ESC).append("[31m");
        }
        int chain = 0;
        while (out.length() < size) {
            if (chain++ > 0) {
                out.append("\nDuring handling of the above exception, another exception occurred:\n\n");
            }
            out.append("Traceback (most recent call last):\n");
            int frames = 3 + random.nextInt(12);
            for (int f = 0; f < frames; f++) {
                out.append("  File \"/srv/app/")
                        .append(WORDS[random.nextInt(WORDS.length)])
                        .append(".py\", line ")
                        .append(1 + random.nextInt(900))
                        .append(", in ")
                        .append(WORDS[random.nextInt(WORDS.length)])
                        .append('\n')
                        .append("    result = ")
                        .append(WORDS[random.nextInt(WORDS.length)])
                        .append("(")
                        .append(words(3).replace(' ', ','))
                        .append(")\n");
                if (random.nextInt(4) == 0) {
                    out.append("             ^^^^^^^^^^^^^^^\n");
                }
            }
            out.append(random.nextBoolean() ? "ValueError: " : "KeyError: '")
                    .append(words(4))
                    .append('\n');
        }
        if (colour) {
            out.append(WritePathTextBenchmark.ESC).append("[0m");
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
