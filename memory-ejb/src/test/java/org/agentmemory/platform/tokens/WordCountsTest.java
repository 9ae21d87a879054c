package org.agentmemory.platform.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Word-by-word counting through the table of known words equals jtokkit's count of the whole text. */
class WordCountsTest {

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    /** Code points of every kind the pre-tokenizers treat apart, spaces and breaks weighted up. */
    private static final int[] ALPHABET = {
        ' ', ' ', ' ', ' ', ' ', ' ', '\n', '\r', '\t', '\u000b', '\u000c', 0x85, 0xA0, 0x1680, 0x2000, 0x2009, 0x200B,
        0x200D, 0x2028, 0x3000, 0xFEFF, 'a', 'e', 's', 't', 'T', 'X', 'Z', 'd', 'l', 'm', 'r', 'v', '\'', '\'', '"',
        '0', '1', '7', '9', '.', ',', ';', ':', '!', '?', '-', '_', '/', '\\', '(', ')', '{', '}', '<', '>', '=', '+',
        '*', '#', '@', '$', '%', '&', '|', '~', '`', 0x7F, 0x01, 0x1B, 0xE9, 0xDF, 0xC6, 0x0301, 0x0308, 0x20DD, 0x0903,
        0x0928, 0x094D, 0x0645, 0x05D0, 0x0416, 0x0436, 0x03A9, 0x01C5, 0x02B0, 0x4E2D, 0x6587, 0x3002, 0xFF0C, 0x3042,
        0xAC00, 0x0E01, 0x1F600, 0x1F468, 0x1F3FD, 0x1F680, 0x2764, 0xFE0F, 0x00B2, 0x0663, 0x2167, 0x00BD, 0x20AC,
        0x2026, 0x201C, 0x2019, 0x202F, 0x205F, 0x2029, 0x180E, 0xE0001, 0xE0041, 0x1D17B
    };

    private static final String[] WORDS = {
        "the",
        "memory",
        "Service",
        "DON'T",
        "it's",
        "we'll",
        "I'M",
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
        "\uD83D\uDE00\uD83D\uDE80",
        "\uD83D\uDC68\u200D\uD83D\uDC69",
        "\u0928\u092E\u0938\u094D\u0924\u0947",
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
        "@user",
        "averyveryveryverylongwordthatisnotremembered",
        "\u200B",
        "\u200D",
        ""
    };

    @ParameterizedTest
    @EnumSource(
            value = EncodingType.class,
            names = {"O200K_BASE", "CL100K_BASE"})
    void sumOfWordsEqualsWholeCountOnRandomCodePoints(EncodingType type) {
        Encoding encoding = REGISTRY.getEncoding(type);
        WordCounts small = new WordCounts(encoding::countTokensOrdinary, 16);
        WordCounts large = new WordCounts(encoding::countTokensOrdinary, WordCounts.DEFAULT_CAPACITY);
        Random random = new Random(7);
        for (int round = 0; round < 3_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(120);
            for (int i = 0; i < length; i++) {
                text.appendCodePoint(ALPHABET[random.nextInt(ALPHABET.length)]);
            }
            String s = text.toString();
            int exact = encoding.countTokensOrdinary(s);
            assertThat(large.count(s)).as("round %d: %s", round, escape(s)).isEqualTo(exact);
            assertThat(small.count(s))
                    .as("round %d (small table): %s", round, escape(s))
                    .isEqualTo(exact);
        }
        assertThat(small.size()).isLessThanOrEqualTo(2 * 16);
    }

    @ParameterizedTest
    @EnumSource(
            value = EncodingType.class,
            names = {"O200K_BASE", "CL100K_BASE"})
    void sumOfWordsEqualsWholeCountOnMixedProse(EncodingType type) {
        Encoding encoding = REGISTRY.getEncoding(type);
        WordCounts words = new WordCounts(encoding::countTokensOrdinary, 64);
        Random random = new Random(42);
        String[] separators = {
            " ", " ", " ", "  ", "   ", "\n", "\n\n", " \n", "\n ", ", ", ". ", "\t", " \t ", "", "\u3000"
        };
        for (int round = 0; round < 400; round++) {
            StringBuilder text = new StringBuilder();
            int length = 1 + random.nextInt(600);
            while (text.length() < length) {
                text.append(WORDS[random.nextInt(WORDS.length)]).append(separators[random.nextInt(separators.length)]);
            }
            String s = random.nextBoolean() ? text.toString() : text.toString().strip();
            assertThat(words.count(s)).as("round %d: %s", round, escape(s)).isEqualTo(encoding.countTokensOrdinary(s));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = EncodingType.class,
            names = {"O200K_BASE", "CL100K_BASE"})
    void sumOfPartsEqualsWholeCountOnLongWordsWithoutSpaces(EncodingType type) {
        Encoding encoding = REGISTRY.getEncoding(type);
        WordCounts words = new WordCounts(encoding::countTokensOrdinary, 64);
        int[] noSpaces = java.util.Arrays.stream(ALPHABET).filter(c -> c != ' ').toArray();
        Random random = new Random(11);
        for (int round = 0; round < 3_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = 33 + random.nextInt(200);
            for (int i = 0; i < length; i++) {
                text.appendCodePoint(noSpaces[random.nextInt(noSpaces.length)]);
            }
            String s = text.toString();
            assertThat(words.count(s)).as("round %d: %s", round, escape(s)).isEqualTo(encoding.countTokensOrdinary(s));
        }
        // Compact JSON, URLs and paths, as tool inputs carry them: words joined without spaces.
        String[] joints = {"\":\"", "\",\"", "\":", ",", "/", "?", "=", "&", "_", "-", ".", "[", "]", "{\"", "\"}"};
        for (int round = 0; round < 1_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = 33 + random.nextInt(300);
            while (text.length() < length) {
                text.append(WORDS[random.nextInt(WORDS.length)].replace(" ", ""))
                        .append(joints[random.nextInt(joints.length)]);
            }
            String s = text.toString();
            assertThat(words.count(s))
                    .as("json round %d: %s", round, escape(s))
                    .isEqualTo(encoding.countTokensOrdinary(s));
        }
    }

    @Test
    void aLongWordIsSplitWhereAPieceStartsAfterALetterOrNumberAndItsPartsAreRemembered() {
        List<String> encoded = new ArrayList<>();
        WordCounts words = new WordCounts(recording(encoded, String::length), 100);
        String json = "{\"deployment\":\"payments\",\"tail\":200}";
        assertThat(words.count(json)).isEqualTo(json.length());
        assertThat(words.count(json)).isEqualTo(json.length());
        assertThat(encoded).containsExactly("{\"deployment", "\":\"payments", "\",\"tail", "\":200", "}");
        // No cut inside a contraction, before a mark, or between numbers (5² is one number piece).
        encoded.clear();
        String kept = "x".repeat(WordCounts.MAX_WORD_CHARS) + "'s" + "e\u0301" + "5\u00B2" + "\u2167\u00BD";
        words.count(kept);
        assertThat(encoded).containsExactly(kept);
    }

    @Test
    void eachShortWordIsCountedOnceAndLongWordsEveryTime() {
        List<String> encoded = new ArrayList<>();
        WordCounts words = new WordCounts(recording(encoded, String::length), 100);
        String longWord = "x".repeat(WordCounts.MAX_WORD_CHARS + 1);
        assertThat(words.count("the cat and the dog " + longWord)).isEqualTo(20 + longWord.length());
        assertThat(words.count("the cat and the dog " + longWord)).isEqualTo(20 + longWord.length());
        assertThat(encoded).containsExactly("the", " cat", " and", " the", " dog", " " + longWord, " " + longWord);
        assertThat(words.size()).isEqualTo(5);
    }

    @Test
    void wordsBeginAtASpaceAfterAVisibleCharacterOnly() {
        List<String> encoded = new ArrayList<>();
        WordCounts words = new WordCounts(recording(encoded, s -> 1), 100);
        words.count("a  b\n c\u200B d\u00A0 e\uD83D\uDE00 f ");
        assertThat(encoded).containsExactly("a", "  b\n c\u200B d\u00A0 e\uD83D\uDE00", " f", " ");
    }

    @Test
    void aFullGenerationTurnsOverAndWordsInUseSurvive() {
        List<String> encoded = new ArrayList<>();
        WordCounts words = new WordCounts(recording(encoded, String::length), 3);
        words.count("a b c");
        assertThat(words.size()).isEqualTo(3);
        words.count("d");
        assertThat(words.size()).isEqualTo(4);
        // " b" is found in the previous generation: not counted again, and copied into the current one.
        words.count("d b");
        assertThat(encoded).containsExactly("a", " b", " c", "d");
        words.count("e f");
        // The current generation {d, " b"} filled up with "e": it became the previous one, {a, " b", " c"} was dropped.
        words.count("a b");
        assertThat(encoded).containsExactly("a", " b", " c", "d", "e", " f", "a");
        assertThat(words.size()).isLessThanOrEqualTo(6);
        assertThat(words.count("")).isZero();
    }

    @Test
    void aWordOfExactlyTheLongestRememberedLengthIsRemembered() {
        List<String> encoded = new ArrayList<>();
        WordCounts words = new WordCounts(recording(encoded, s -> 1), 100);
        String longest = "x " + "y".repeat(WordCounts.MAX_WORD_CHARS - 1);
        words.count(longest);
        words.count(longest);
        assertThat(encoded).containsExactly("x", " " + "y".repeat(WordCounts.MAX_WORD_CHARS - 1));
        String tooLong = "x " + "z".repeat(WordCounts.MAX_WORD_CHARS);
        words.count(tooLong);
        words.count(tooLong);
        assertThat(encoded)
                .endsWith(" " + "z".repeat(WordCounts.MAX_WORD_CHARS), " " + "z".repeat(WordCounts.MAX_WORD_CHARS));
    }

    @Test
    void concurrentCountsAgreeWithTheEncoder() throws Exception {
        Encoding encoding = REGISTRY.getEncoding(EncodingType.O200K_BASE);
        WordCounts words = new WordCounts(encoding::countTokensOrdinary, 50);
        List<String> texts = new ArrayList<>();
        Random random = new Random(3);
        for (int i = 0; i < 200; i++) {
            StringBuilder text = new StringBuilder();
            for (int w = 0; w < 40; w++) {
                text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
            }
            texts.add(text.toString());
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Boolean>> tasks = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                tasks.add(() -> texts.stream().allMatch(s -> words.count(s) == encoding.countTokensOrdinary(s)));
            }
            for (Future<Boolean> result : pool.invokeAll(tasks)) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void capacityBelowOneIsRejected() {
        assertThatThrownBy(() -> new WordCounts(String::length, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity");
    }

    /** @return an encoder that records each text it is given, then counts it with {@code count} */
    private static ToIntFunction<String> recording(List<String> encoded, ToIntFunction<String> count) {
        return s -> {
            encoded.add(s);
            return count.applyAsInt(s);
        };
    }

    private static String escape(String s) {
        StringBuilder out = new StringBuilder();
        s.codePoints()
                .forEach(cp ->
                        out.append(cp >= 0x20 && cp < 0x7f ? Character.toString(cp) : String.format("\\u{%X}", cp)));
        return out.toString();
    }
}
