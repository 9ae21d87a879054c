package org.agentmemory.platform.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Segment-wise counting equals jtokkit's whole-text count wherever the text has natural boundaries. */
class BpeSegmentsTest {

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private static final String[] WORDS = {
        "the",
        "memory",
        "Service",
        "DON'T",
        "it's",
        "we'll",
        "naïve",
        "café",
        "e\u0301t\u0301e\u0301",
        "12345",
        "3.14159",
        "x=y+1;",
        "foo_bar",
        "https://example.org/a?b=c",
        "\u65e5\u672c\u8a9e",
        "\u4e2d\u6587\u7684\u53e5\u5b50\u3002",
        "\u6587\u7ae0\uff0c\u3068",
        "\uD83D\uDE00\uD83D\uDE80",
        "\uD83D\uDC68\u200D\uD83D\uDC69",
        "\u0928\u092E\u0938\u094D\u0924\u0947",
        "\u0645\u0631\u062D\u0628\u0627",
        "(parens)",
        "--",
        "...",
        "'quoted'",
        "\"double\"",
        "tab\there",
        "CamelCaseWord",
        "ÜBER",
        "\u00A0nbsp",
        "line\r\nbreak",
        "/path/to",
        "#tag",
        "@user"
    };

    @ParameterizedTest
    @EnumSource(
            value = EncodingType.class,
            names = {"O200K_BASE", "CL100K_BASE"})
    void segmentSumEqualsWholeCountOnMixedText(EncodingType type) {
        Encoding encoding = REGISTRY.getEncoding(type);
        Random random = new Random(42);
        for (int round = 0; round < 40; round++) {
            StringBuilder text = new StringBuilder();
            while (text.length() < 5_000) {
                text.append(WORDS[random.nextInt(WORDS.length)]);
                int separator = random.nextInt(10);
                text.append(
                        separator < 6 ? " " : separator < 7 ? "  " : separator < 8 ? "\n" : separator < 9 ? ", " : "");
            }
            String s = text.toString();
            for (int segment : new int[] {64, 100, 257, 1_000}) {
                assertThat(BpeSegments.count(s, encoding::countTokensOrdinary, segment))
                        .as("round %d, segments of %d", round, segment)
                        .isEqualTo(encoding.countTokensOrdinary(s));
            }
        }
    }

    @Test
    void cjkProseWithoutSpacesIsCutAtPunctuationAndCountedExactly() {
        Encoding encoding = REGISTRY.getEncoding(EncodingType.O200K_BASE);
        String prose =
                "\u4eca\u65e5\u306f\u3088\u3044\u5929\u6c17\u3067\u3059\u3002\u6211\u4eec\u53bb\u516c\u56ed\u6563\u6b65\uff0c"
                        + "\u7136\u540e\u5403\u996d\u3002".repeat(1);
        String text = prose.repeat(2_000);
        assertThat(text.indexOf(' ')).isNegative();
        assertThat(BpeSegments.count(text, encoding::countTokensOrdinary))
                .isEqualTo(encoding.countTokensOrdinary(text));
    }

    @Test
    void aRunWithoutAnyBoundaryIsCutHardAndStaysClose() {
        Encoding encoding = REGISTRY.getEncoding(EncodingType.O200K_BASE);
        List<Integer> segmentLengths = new ArrayList<>();
        String word = "a".repeat(100_000);
        int count = BpeSegments.count(word, s -> {
            segmentLengths.add(s.length());
            return encoding.countTokensOrdinary(s);
        });
        assertThat(segmentLengths).allMatch(length -> length <= BpeSegments.SEGMENT_CHARS);
        assertThat(segmentLengths.stream().mapToInt(Integer::intValue).sum()).isEqualTo(100_000);
        int exact = encoding.countTokensOrdinary(word);
        assertThat(count).isBetween(exact - 2 * segmentLengths.size(), exact + 2 * segmentLengths.size());
    }

    @Test
    void hardCutsNeverSplitASurrogatePair() {
        String emoji = "\uD83D\uDE00".repeat(50);
        List<String> segments = new ArrayList<>();
        BpeSegments.count(
                emoji,
                s -> {
                    segments.add(s);
                    return 1;
                },
                7);
        assertThat(String.join("", segments)).isEqualTo(emoji);
        assertThat(segments)
                .allMatch(s ->
                        !Character.isLowSurrogate(s.charAt(0)) && !Character.isHighSurrogate(s.charAt(s.length() - 1)));
    }

    @Test
    void shortTextIsCountedWhole() {
        List<String> seen = new ArrayList<>();
        BpeSegments.count("short text", s -> {
            seen.add(s);
            return 2;
        });
        assertThat(seen).containsExactly("short text");
    }

    @Test
    void theCounterUsesSegments() {
        TokenCounter counter = TokenCounters.forName("o200k_base");
        Encoding encoding = REGISTRY.getEncoding(EncodingType.O200K_BASE);
        String text = "Bounded memory for every input, exact for prose. ".repeat(2_000);
        assertThat(counter.count(text)).isEqualTo(encoding.countTokensOrdinary(text));
    }
}
