package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §2: normalize(normalize(t)) == normalize(t), over a corpus of messy inputs and random fragments. */
class NormalizerIdempotenceTest {

    private static final String ESC = "\u001b";

    static Stream<String> corpus() {
        return Stream.of(
                // ANSI-coloured build log with a progress bar using CR and a window title
                ESC + "]0;mvn test" + "\u0007" + ESC + "[1;34m[INFO]" + ESC + "[0m Building memory-ejb   \r\n"
                        + "Progress: 10%\rProgress: 50%\rProgress: 100%\r\n" + ESC + "[31;1mERROR" + ESC
                        + "[m failed\t \n",
                // CRLF document with trailing blanks and long blank runs
                "Line one  \r\nLine two\t\r\n\r\n\r\n\r\n\r\n\r\nLine three\r\n",
                // control characters everywhere
                "a\u0000b\u0001c\u0002d\u0008e\u000bf\u000cg\u000eh\u001fi\u007fj",
                // terminal keys
                ESC + "OA" + ESC + "OB" + ESC + "[A" + ESC + "O\n" + ESC + "O",
                // a Python traceback as a tool prints it, with colours and CRLF
                "Running job 7\r\n" + ESC + "[31mTraceback (most recent call last):\r\n"
                        + "  File \"/srv/job.py\", line 88, in <module>\r\n    main()\r\n"
                        + "  File \"/srv/job.py\", line 80, in main\r\n    run(cfg)\r\n"
                        + "  File \"/srv/run.py\", line 12, in run\r\n    step()   \r\n"
                        + "  File \"/srv/step.py\", line 5, in step\r\n    raise ValueError(\"bad\")\r\n"
                        + "ValueError: bad" + ESC + "[0m\r\n",
                // chained traceback
                "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\n    g()\nKeyError: 'k'\n\n"
                        + "During handling of the above exception, another exception occurred:\n\n"
                        + "Traceback (most recent call last):\n  File \"b.py\", line 2, in h\n    f()\n"
                        + "  File \"a.py\", line 3, in f\n    raise LookupError\nLookupError\n",
                // traceback with notes and an exception group
                "Traceback (most recent call last):\n  File \"x.py\", line 1\n    x()\n\n    indented note\n\nExceptionGroup: 2\n"
                        + "  +-+---------------- 1 ----------------\n    | ValueError: 1\n",
                // nested JSON, pretty-printed, with unicode and escapes
                "{\n  \"z\": {\"b\": [1, 2, {\"d\": 4, \"c\": 3}], \"a\": \"\u00e9\u6771\u4eac\"},\n"
                        + "  \"a\": \"line\\nbreak\", \"u\": \"\\u00e9\", \"esc\": \"\\u001b[0m\"\n}\n",
                "[{\"b\": 1, \"a\": 2}, [], {}]",
                "{\"name\": \"e\\u0301\", \"del\": \"\\u007f\"}",
                "{\"k\": \"\\n\u0303\"}",
                // non-JSON outputs and scalars
                "42",
                "true",
                " 42 ",
                "\"quoted\"",
                "{not json}",
                "[1, 2",
                "null",
                "",
                "   ",
                "\n\n\n\n\n",
                // emoji, CJK, decomposed Unicode
                "\ud83d\ude80 launch \ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67 family",
                "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3002\u4e2d\u6587\u6587\u672c\u3002",
                "Cafe\u0301 na\u0131\u0308ve \u1100\u1161\u11a8 A\u030a\u212b",
                // combining marks next to things that get deleted
                "e" + ESC + "[0m\u0301",
                "e\u0000\u0301",
                "a\u0301\u0001\u0316",
                "\u1100" + ESC + "]t\u0007\u1161",
                // tabs
                "\tcol1\tcol2\t\n\t\t\n");
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void normalizeTextIsIdempotent(String text) {
        String once = Normalizer.normalizeText(text);
        assertThat(Normalizer.normalizeText(once)).isEqualTo(once);
        assertNormalizedShape(once);
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void normalizeOutputIsIdempotent(String text) {
        String once = Normalizer.normalizeOutput(text);
        assertThat(Normalizer.normalizeOutput(once)).isEqualTo(once);
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void normalizeErrorIsIdempotent(String text) {
        String once = Normalizer.normalizeError(text);
        assertThat(Normalizer.normalizeError(once)).isEqualTo(once);
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void condenseTracebackIsIdempotentOnRawText(String text) {
        String once = Normalizer.condenseTraceback(text);
        assertThat(Normalizer.condenseTraceback(once)).isEqualTo(once);
    }

    @Test
    void normalizeTurnIsIdempotentOverTheCorpus() {
        List<String> texts = corpus().toList();
        for (int i = 0; i < texts.size(); i++) {
            String a = texts.get(i);
            String b = texts.get((i + 1) % texts.size());
            ToolInvocationRecord invocation = new ToolInvocationRecord(
                    "tool-" + i,
                    Map.of("q", a, "nested", Map.of("z", b, "a", List.of(1, a))),
                    a,
                    InvocationStatus.ERROR,
                    b,
                    5L,
                    null,
                    null,
                    null);
            TurnRecord turn = new TurnRecord(
                    "t" + i,
                    null,
                    "u",
                    a,
                    b,
                    a,
                    List.of("tool-" + i),
                    null,
                    Map.of(),
                    "bot",
                    List.of(invocation),
                    b,
                    null,
                    null,
                    null,
                    null);
            TurnRecord once = Normalizer.normalizeTurn(turn);
            assertThat(Normalizer.normalizeTurn(once)).as("turn %d", i).isEqualTo(once);
        }
    }

    /**
     * Random texts built from fragments that interact: escape introducers, combining marks, line breaks,
     * traceback pieces, JSON punctuation and escapes. A fixed seed keeps failures reproducible.
     */
    @Test
    void everyNormalizationIsIdempotentOnRandomFragmentSoup() {
        String[] fragments = {
            "Traceback (most recent call last):",
            "  File \"x.py\", line 1, in f",
            "    ",
            "  ",
            " ",
            "\t",
            "\n",
            "\n\n",
            "\r",
            "\r\n",
            ESC,
            "[",
            "]",
            "O",
            "0",
            ";",
            "m",
            "?",
            " q",
            "\u0007",
            "\u0000",
            "\u007f",
            "\u000b",
            "e",
            "\u0301",
            "\u0316",
            "\u0327",
            "\u00e9",
            "\u1100",
            "\u1161",
            "{",
            "}",
            "\"",
            ":",
            ",",
            "\\u0301",
            "\\u007f",
            "\\n",
            "\\t",
            "\\u001b",
            "a",
            "42",
            "true",
            "\u00a0",
            "\u3000",
            "\u0085",
            "\u65e5\u672c",
            "\ud83d\ude00",
            "ValueError: v",
            "x()",
            "{\"k\": \"",
            "\"}",
            "[1, ",
            "]"
        };
        Random random = new Random(20260501L);
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < 30_000 && failures.size() < 5; round++) {
            StringBuilder text = new StringBuilder();
            int pieces = random.nextInt(30);
            for (int i = 0; i < pieces; i++) {
                text.append(fragments[random.nextInt(fragments.length)]);
            }
            String input = text.toString();
            checkFixedPoint(
                    "normalizeText", Normalizer.normalizeText(input), Normalizer::normalizeText, input, failures);
            checkFixedPoint(
                    "normalizeOutput", Normalizer.normalizeOutput(input), Normalizer::normalizeOutput, input, failures);
            checkFixedPoint(
                    "normalizeError", Normalizer.normalizeError(input), Normalizer::normalizeError, input, failures);
            checkFixedPoint(
                    "condenseTraceback",
                    Normalizer.condenseTraceback(input),
                    Normalizer::condenseTraceback,
                    input,
                    failures);
        }
        assertThat(failures).isEmpty();
    }

    private static void checkFixedPoint(
            String name,
            String once,
            java.util.function.UnaryOperator<String> function,
            String input,
            List<String> failures) {
        String twice = function.apply(once);
        if (!twice.equals(once)) {
            failures.add(name + " not idempotent on " + escape(input) + ": once=" + escape(once) + " twice="
                    + escape(twice));
        }
    }

    private static String escape(String text) {
        StringBuilder out = new StringBuilder("\"");
        text.codePoints().forEach(cp -> {
            if (cp < 0x20 || cp == 0x7f || cp > 0x7e) {
                out.append(String.format(java.util.Locale.ROOT, "\\u%04x", cp));
            } else {
                out.appendCodePoint(cp);
            }
        });
        return out.append('"').toString();
    }

    private static void assertNormalizedShape(String text) {
        assertThat(text).doesNotContain("\r", ESC, "\n\n\n\n", " \n", "\t\n");
        assertThat(text.chars().filter(c -> c < 0x20 && c != '\t' && c != '\n' || c == 0x7f))
                .isEmpty();
        assertThat(text).doesNotEndWith(" ").doesNotEndWith("\t");
        assertThat(java.text.Normalizer.isNormalized(text, java.text.Normalizer.Form.NFC))
                .isTrue();
    }
}
