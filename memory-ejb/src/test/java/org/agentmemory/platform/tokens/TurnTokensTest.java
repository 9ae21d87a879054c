package org.agentmemory.platform.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.junit.jupiter.api.Test;

/** Spec §3: per-turn token counts, checked against jtokkit directly. */
class TurnTokensTest {

    private static final Encoding O200K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
    private static final TokenCounter COUNTER = TokenCounters.forName("o200k_base");

    private static final String CJK_2000 = "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3068\u4e2d\u6587\u7684\u53e5\u5b50"
            .repeat(200)
            .substring(0, 2000);

    @Test
    void countsAsciiExactlyAsJtokkit() {
        String text = "The quick brown fox jumps over the lazy dog. It's 2026; tokens != characters.";
        TokenCount count = TurnTokens.countTurn(TurnRecord.of("t", text, "ok"), COUNTER);
        assertThat(count.user()).isEqualTo(O200K.countTokensOrdinary(text)).isGreaterThan(10);
        assertThat(count.assistant()).isEqualTo(O200K.countTokensOrdinary("ok"));
        assertThat(count.tokenizer()).isEqualTo("o200k_base");
    }

    @Test
    void countsCjkAsBpeTokensNeverLengthOverFour() {
        assertThat(CJK_2000.codePointCount(0, CJK_2000.length())).isEqualTo(2000);
        TokenCount count = TurnTokens.countTurn(TurnRecord.of("t", CJK_2000, ""), COUNTER);
        assertThat(count.user()).isEqualTo(O200K.countTokensOrdinary(CJK_2000)).isGreaterThan(1000);
        assertThat(count.user()).isNotEqualTo(2000 / 4);
    }

    @Test
    void countsEmojiExactlyAsJtokkit() {
        String text =
                "\ud83d\ude80\ud83d\udd25 ship it \ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67\u200d\ud83d\udc66";
        TokenCount count = TurnTokens.countTurn(TurnRecord.of("t", "", text), COUNTER);
        assertThat(count.assistant()).isEqualTo(O200K.countTokensOrdinary(text)).isGreaterThan(5);
        assertThat(count.user()).isZero();
    }

    @Test
    void countsSpecialTokenTextAsOrdinaryText() {
        String text = "<|endoftext|> is just text here";
        assertThat(COUNTER.count(text))
                .isEqualTo(O200K.countTokensOrdinary(text))
                .isGreaterThan(3);
    }

    @Test
    void toolsAreCanonicalInputPlusOutputPlusErrorOfEveryInvocation() {
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("b", 1);
        input.put("a", "x");
        RecordingCounter recording = new RecordingCounter();
        TurnRecord turn = TurnRecord.of("t", "question", "answer")
                .withToolInvocations(List.of(
                        new ToolInvocationRecord(
                                "one", input, "result text", InvocationStatus.COMPLETED, null, null, null, null, null),
                        new ToolInvocationRecord(
                                "two", null, null, InvocationStatus.ERROR, "failure", null, null, null, null)));

        TokenCount count = TurnTokens.countTurn(turn, recording);

        assertThat(recording.texts)
                .containsExactly(
                        "question", "answer", "{\"a\":\"x\",\"b\":1}", "result text", null, "{}", null, "failure");
        assertThat(count.tools()).isEqualTo(15 + 11 + 2 + 7);
        assertThat(count.user()).isEqualTo(8);
        assertThat(count.assistant()).isEqualTo(6);
        assertThat(count.total()).isEqualTo(8 + 6 + 35);
        assertThat(count.tokenizer()).isEqualTo("recording");
    }

    @Test
    void toolsMatchJtokkitOnTheCanonicalJson() {
        TurnRecord turn = TurnRecord.of("t", "q", "a")
                .withToolInvocations(List.of(ToolInvocationRecord.of(
                        "search", Map.of("query", "\u6771\u4eac weather", "limit", 5), "sunny, 21\u00b0C")));
        TokenCount count = TurnTokens.countTurn(turn, COUNTER);
        int expected = O200K.countTokensOrdinary("{\"limit\":5,\"query\":\"\u6771\u4eac weather\"}")
                + O200K.countTokensOrdinary("sunny, 21\u00b0C");
        assertThat(count.tools()).isEqualTo(expected);
        assertThat(count.total()).isEqualTo(count.user() + count.assistant() + expected);
    }

    @Test
    void contextUsedIsDeliberatelyNotCounted() {
        TurnRecord without = TurnRecord.of("t", "q", "a");
        TurnRecord with = new TurnRecord(
                "t",
                null,
                null,
                "q",
                "a",
                "a long retrieval context ".repeat(50),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        assertThat(TurnTokens.countTurn(with, COUNTER)).isEqualTo(TurnTokens.countTurn(without, COUNTER));
    }

    @Test
    void nullTextsCountZero() {
        TurnRecord turn = new TurnRecord(
                "t", null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        assertThat(TurnTokens.countTurn(turn, COUNTER)).isEqualTo(new TokenCount(0, 0, 0, 0, "o200k_base"));
    }

    @Test
    void heuristicIsUtf8BytesOverFourWithAMinimumOfOne() {
        TokenCounter heuristic = TokenCounters.heuristic();
        assertThat(heuristic.name()).isEqualTo("heuristic");
        assertThat(heuristic.count("")).isZero();
        assertThat(heuristic.count("abc")).isEqualTo(1);
        assertThat(heuristic.count("abcdefgh")).isEqualTo(2);
        assertThat(heuristic.count("abcdefghijk")).isEqualTo(2);
        assertThat(heuristic.count(CJK_2000)).isEqualTo(6000 / 4); // 3 UTF-8 bytes per character
        assertThat(heuristic.count("\ud83d\ude80")).isEqualTo(1); // 4 bytes
        assertThat(heuristic.count("\u00e9".repeat(10))).isEqualTo(5); // 20 bytes
        TokenCount count = TurnTokens.countTurn(TurnRecord.of("t", CJK_2000, "abcdefgh"), heuristic);
        assertThat(count).isEqualTo(new TokenCount(1500, 2, 0, 1502, "heuristic"));
    }

    @Test
    void ignoresTheCountAlreadyOnTheTurn() {
        TurnRecord turn = TurnRecord.of("t", "hello world", "hi")
                .withTokenCount(new TokenCount(999, 999, 999, 2997, "o200k_base"));
        TokenCount count = TurnTokens.countTurn(turn, COUNTER);
        assertThat(count.user()).isEqualTo(O200K.countTokensOrdinary("hello world"));
        assertThat(count.total()).isEqualTo(O200K.countTokensOrdinary("hello world") + O200K.countTokensOrdinary("hi"));
    }

    @Test
    void needsRecountWhenTheCountIsMissingOrFromAnotherTokenizer() {
        TurnRecord uncounted = TurnRecord.of("t", "q", "a");
        assertThat(TurnTokens.needsRecount(uncounted, COUNTER)).isTrue();
        assertThat(TurnTokens.needsRecount(uncounted.withTokenCount(new TokenCount(1, 1, 0, 2, "o200k_base")), COUNTER))
                .isFalse();
        assertThat(TurnTokens.needsRecount(uncounted.withTokenCount(new TokenCount(1, 1, 0, 2, "heuristic")), COUNTER))
                .isTrue();
        assertThat(TurnTokens.needsRecount(
                        uncounted.withTokenCount(new TokenCount(1, 1, 0, 2, "cl100k_base")),
                        TokenCounters.forName("cl100k_base")))
                .isFalse();
    }

    /** Records what it is asked to count; a text counts as its length in chars. */
    private static final class RecordingCounter implements TokenCounter {
        final List<String> texts = new ArrayList<>();

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public int count(String text) {
            texts.add(text);
            return text == null ? 0 : text.length();
        }
    }
}
