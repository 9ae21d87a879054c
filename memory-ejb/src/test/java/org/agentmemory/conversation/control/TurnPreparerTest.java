package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.omission.Omission;
import org.agentmemory.omission.control.ContentIds;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.agentmemory.platform.tokens.TurnTokens;
import org.junit.jupiter.api.Test;

/** Spec §6 steps 1–6: normalize, count, offload oversized tool outputs, recount, schema version 2. */
class TurnPreparerTest {

    private static final Encoding O200K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
    private static final TokenCounter COUNTER = TokenCounters.forName("o200k_base");

    private static final String LOG_LINE = "2026-05-01 12:00:00 INFO request served in 12ms\n";
    /** 50,000 characters of log: 1,041 full lines of 48 characters, then 32 characters of the next. */
    private static final String LOG_50K = LOG_LINE.repeat(1042).substring(0, 50_000);

    private static TurnRecord turnWith(ToolInvocationRecord... invocations) {
        return TurnRecord.of("turn-1", "show me the log", "here it is").withToolInvocations(List.of(invocations));
    }

    @Test
    void offloadsA50000CharacterOutputAndLeavesTheExactPreview() {
        PreparedTurn prepared = TurnPreparer.prepare(
                turnWith(ToolInvocationRecord.of("read_log", Map.of("path", "/var/log/app.log"), LOG_50K)), COUNTER);

        ToolInvocationRecord invocation = prepared.turn().toolInvocations().get(0);
        assertThat(invocation.output())
                .isEqualTo("2026-05-01 12:00:00 INFO request served in 12ms\n"
                        + "2026-05-01 12:00:00 INFO request served in 12ms\n"
                        + "2026-05-01 12:00:00 INFO request served in 12ms\n"
                        + "2026-05-01 12:00:00 INFO request served in 12ms\n"
                        + "2026-05- \u2026(+49,800 chars)");
        String id = ContentIds.contentId(LOG_50K);
        assertThat(id).matches("om_[0-9a-f]{16}");
        assertThat(invocation.omitted()).isEqualTo(Map.of("output", id));
        assertThat(invocation.outputChars()).isEqualTo(50_000);
        assertThat(prepared.omissions()).containsExactly(new Omission(id, LOG_50K, "turn-1", "read_log", "output"));
    }

    @Test
    void recountsAfterOffloadAndStampsSchemaVersion2() {
        PreparedTurn prepared =
                TurnPreparer.prepare(turnWith(ToolInvocationRecord.of("read_log", Map.of(), LOG_50K)), COUNTER);

        TurnRecord turn = prepared.turn();
        String preview = turn.toolInvocations().get(0).output();
        assertThat(turn.tokenCount().tools())
                .isEqualTo(O200K.countTokensOrdinary("{}") + O200K.countTokensOrdinary(preview));
        assertThat(turn.tokenCount()).isEqualTo(TurnTokens.countTurn(turn, COUNTER));
        assertThat(turn.schemaVersion()).isEqualTo(2);
        assertThat(turn.normVersion()).isEqualTo("1");
    }

    @Test
    void anOutputOfExactlyTheThresholdStaysAndOneTokenMoreIsOffloaded() {
        String exactly = "apple" + " apple".repeat(1999);
        String oneMore = exactly + " apple";
        assertThat(O200K.countTokensOrdinary(exactly)).isEqualTo(2000);
        assertThat(O200K.countTokensOrdinary(oneMore)).isEqualTo(2001);

        PreparedTurn kept =
                TurnPreparer.prepare(turnWith(ToolInvocationRecord.of("t", null, exactly)), true, COUNTER, 2000);
        PreparedTurn offloaded =
                TurnPreparer.prepare(turnWith(ToolInvocationRecord.of("t", null, oneMore)), true, COUNTER, 2000);

        assertThat(kept.omissions()).isEmpty();
        assertThat(kept.turn().toolInvocations().get(0).output()).isEqualTo(exactly);
        assertThat(kept.turn().toolInvocations().get(0).omitted()).isEmpty();
        assertThat(kept.turn().toolInvocations().get(0).outputChars()).isNull();
        assertThat(offloaded.omissions()).hasSize(1);
        assertThat(offloaded.turn().toolInvocations().get(0).omitted())
                .containsEntry("output", ContentIds.contentId(oneMore));
        assertThat(offloaded.turn().toolInvocations().get(0).outputChars()).isEqualTo(oneMore.length());
    }

    @Test
    void identicalOutputsGiveOneOmissionAndTheSameIdOnEveryInvocation() {
        PreparedTurn prepared = TurnPreparer.prepare(
                turnWith(
                        ToolInvocationRecord.of("first_tool", Map.of("n", 1), LOG_50K),
                        ToolInvocationRecord.of("second_tool", Map.of("n", 2), LOG_50K)),
                COUNTER);

        String id = ContentIds.contentId(LOG_50K);
        assertThat(prepared.turn().toolInvocations())
                .extracting(i -> i.omitted().get("output"))
                .containsExactly(id, id);
        assertThat(prepared.omissions()).containsExactly(new Omission(id, LOG_50K, "turn-1", "first_tool", "output"));
    }

    @Test
    void distinctOutputsGiveOmissionsInInvocationOrder() {
        String other = LOG_50K.replace("INFO", "WARN");
        PreparedTurn prepared = TurnPreparer.prepare(
                turnWith(
                        ToolInvocationRecord.of("a", null, other),
                        ToolInvocationRecord.of("small", null, "tiny"),
                        ToolInvocationRecord.of("b", null, LOG_50K)),
                COUNTER);
        assertThat(prepared.omissions()).extracting(Omission::toolName).containsExactly("a", "b");
        assertThat(prepared.turn().toolInvocations().get(1).output()).isEqualTo("tiny");
    }

    @Test
    void theOmissionHoldsTheOutputExactlyAsSentWhileThePreviewIsNormalized() {
        String crlf = LOG_50K.replace("\n", "\r\n") + " \t ";
        PreparedTurn prepared =
                TurnPreparer.prepare(turnWith(ToolInvocationRecord.of("read_log", null, crlf)), COUNTER);

        ToolInvocationRecord invocation = prepared.turn().toolInvocations().get(0);
        assertThat(invocation.omitted().get("output"))
                .isEqualTo(ContentIds.contentId(crlf))
                .isNotEqualTo(ContentIds.contentId(LOG_50K));
        assertThat(invocation.outputChars()).isEqualTo(crlf.length());
        assertThat(invocation.output()).doesNotContain("\r").startsWith(LOG_50K.substring(0, 100));
        assertThat(prepared.omissions().get(0).content()).isEqualTo(crlf);
    }

    @Test
    void oversizedInputsAndErrorsAreOffloadedExactlyWithPreviewsLeftInTheTurn() {
        Map<String, Object> input = new java.util.LinkedHashMap<>();
        input.put("zeta", "short");
        input.put("query", "SELECT * FROM t WHERE x = 1\r\n".repeat(3000));
        String error = LOG_50K.replace("\n", "\r\n");
        ToolInvocationRecord failing =
                new ToolInvocationRecord("sql", input, null, InvocationStatus.ERROR, error, null, null, null, null);

        PreparedTurn prepared = TurnPreparer.prepare(turnWith(failing), COUNTER);

        ToolInvocationRecord stored = prepared.turn().toolInvocations().get(0);
        assertThat(stored.omitted()).containsOnlyKeys("input", "error");
        assertThat(stored.input()).containsOnlyKeys("query", "zeta");
        assertThat((String) stored.input().get("query")).endsWith(" chars)").hasSizeLessThan(300);
        assertThat(stored.input().get("zeta")).isEqualTo("short");
        assertThat(stored.error()).hasSizeLessThan(300);
        assertThat(prepared.omissions())
                .extracting(Omission::field, Omission::contentId)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "input", stored.omitted().get("input")),
                        org.assertj.core.groups.Tuple.tuple(
                                "error", stored.omitted().get("error")));
        String inputJson = prepared.omissions().get(0).content();
        assertThat(inputJson)
                .startsWith("{\"zeta\":\"short\",\"query\":\"SELECT")
                .contains("\\r\\n");
        assertThat(prepared.omissions().get(1).content()).isEqualTo(error);
    }

    @Test
    void countsLengthInCodePoints() {
        String emoji = "\ud83d\ude80".repeat(30_000);
        PreparedTurn prepared = TurnPreparer.prepare(turnWith(ToolInvocationRecord.of("t", null, emoji)), COUNTER);
        ToolInvocationRecord invocation = prepared.turn().toolInvocations().get(0);
        assertThat(invocation.outputChars()).isEqualTo(30_000);
        assertThat(invocation.output()).isEqualTo("\ud83d\ude80".repeat(200) + " \u2026(+29,800 chars)");
    }

    @Test
    void aJsonOutputIsRecoveredAsSentAndPreviewedCanonically() {
        StringBuilder json = new StringBuilder("{\n  \"rows\": [\n");
        for (int i = 0; i < 3000; i++) {
            json.append("    {\"name\": \"item ")
                    .append(i)
                    .append("\", \"id\": ")
                    .append(i)
                    .append("},\n");
        }
        json.append("    {}\n  ]\n}\n");
        PreparedTurn prepared =
                TurnPreparer.prepare(turnWith(ToolInvocationRecord.of("query", null, json.toString())), COUNTER);
        assertThat(prepared.omissions().get(0).content()).isEqualTo(json.toString());
        assertThat(prepared.turn().toolInvocations().get(0).output()).startsWith("{\"rows\":[{\"id\":0,");
    }

    @Test
    void neverOffloadsTwiceOrEmptyOrMissingOutputs() {
        ToolInvocationRecord alreadyOmitted = new ToolInvocationRecord(
                "again",
                null,
                LOG_50K,
                InvocationStatus.COMPLETED,
                null,
                null,
                123,
                Map.of("output", "om_0123456789abcdef"),
                null);
        ToolInvocationRecord empty = ToolInvocationRecord.of("empty", null, "");
        ToolInvocationRecord missing = ToolInvocationRecord.of("missing", null, null);
        ToolInvocationRecord errorAlreadyOmitted = new ToolInvocationRecord(
                "failing",
                null,
                null,
                InvocationStatus.ERROR,
                LOG_50K,
                null,
                null,
                Map.of("error", "om_fedcba9876543210"),
                null);

        PreparedTurn prepared =
                TurnPreparer.prepare(turnWith(alreadyOmitted, empty, missing, errorAlreadyOmitted), COUNTER);

        assertThat(prepared.omissions()).isEmpty();
        List<ToolInvocationRecord> invocations = prepared.turn().toolInvocations();
        assertThat(invocations.get(0).output()).isEqualTo(LOG_50K);
        assertThat(invocations.get(0).omitted()).isEqualTo(Map.of("output", "om_0123456789abcdef"));
        assertThat(invocations.get(0).outputChars()).isEqualTo(123);
        assertThat(invocations.get(1).output()).isEmpty();
        assertThat(invocations.get(2).output()).isNull();
        assertThat(invocations.get(3).error()).isEqualTo(LOG_50K);
    }

    @Test
    void replacesAClientCountEvenWithTheRightTokenizerName() {
        TurnRecord turn =
                TurnRecord.of("turn-1", "hello there", "hi").withTokenCount(new TokenCount(1, 1, 1, 3, "o200k_base"));
        PreparedTurn prepared = TurnPreparer.prepare(turn, COUNTER);
        int user = O200K.countTokensOrdinary("hello there");
        int assistant = O200K.countTokensOrdinary("hi");
        assertThat(prepared.turn().tokenCount())
                .isEqualTo(new TokenCount(user, assistant, 0, user + assistant, "o200k_base"));
    }

    @Test
    void withNormalizationOffCountsAndOffloadsTheRawTextAndLeavesTheInputAlone() {
        String crlf = LOG_50K.replace("\n", "\r\n");
        TurnRecord original = TurnRecord.of("turn-1", "a\r\nb  ", "c")
                .withToolInvocations(List.of(ToolInvocationRecord.of("read_log", Map.of("b", 1, "a", 2), crlf)))
                .withTokenCount(new TokenCount(0, 0, 0, 0, "heuristic"));
        TurnRecord snapshot = TurnRecord.of("turn-1", "a\r\nb  ", "c")
                .withToolInvocations(List.of(ToolInvocationRecord.of("read_log", Map.of("b", 1, "a", 2), crlf)))
                .withTokenCount(new TokenCount(0, 0, 0, 0, "heuristic"));

        PreparedTurn prepared = TurnPreparer.prepare(original, false, COUNTER, 2000);

        assertThat(original).isEqualTo(snapshot);
        assertThat(original.toolInvocations().get(0).output()).isEqualTo(crlf);
        assertThat(original.schemaVersion()).isNull();
        TurnRecord turn = prepared.turn();
        assertThat(turn.userMessage()).isEqualTo("a\r\nb  ");
        assertThat(turn.normVersion()).isNull();
        assertThat(turn.tokenCount().tokenizer()).isEqualTo("o200k_base");
        assertThat(turn.tokenCount().user()).isEqualTo(O200K.countTokensOrdinary("a\r\nb  "));
        assertThat(turn.tokenCount()).isEqualTo(TurnTokens.countTurn(turn, COUNTER));
        assertThat(prepared.omissions().get(0).content()).isEqualTo(crlf);
        assertThat(turn.toolInvocations().get(0).outputChars()).isEqualTo(crlf.length());
        assertThat(turn.schemaVersion()).isEqualTo(2);
    }

    @Test
    void withNothingToOffloadOnlyCountsAndStamps() {
        TurnRecord turn = turnWith(ToolInvocationRecord.of("t", Map.of("q", "x"), "small output"));
        PreparedTurn prepared = TurnPreparer.prepare(turn, COUNTER);
        assertThat(prepared.omissions()).isEmpty();
        assertThat(prepared.turn().toolInvocations())
                .isEqualTo(Normalizer.normalizeTurn(turn).toolInvocations());
        assertThat(prepared.turn().schemaVersion()).isEqualTo(2);
        assertThat(prepared.turn().tokenCount()).isEqualTo(TurnTokens.countTurn(prepared.turn(), COUNTER));
    }

    @Test
    void usesTheHeuristicCounterWhenGivenOne() {
        // 50,000 ASCII bytes / 4 = 12,500 heuristic tokens, far above the threshold.
        PreparedTurn prepared =
                TurnPreparer.prepare(turnWith(ToolInvocationRecord.of("t", null, LOG_50K)), TokenCounters.heuristic());
        assertThat(prepared.omissions()).hasSize(1);
        assertThat(prepared.turn().tokenCount().tokenizer()).isEqualTo("heuristic");
    }

    @Test
    void rejectsBadArguments() {
        TurnRecord turn = turnWith();
        assertThatThrownBy(() -> TurnPreparer.prepare(turn, true, COUNTER, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("oversizeToolTokens must be > 0 but was 0; the default is 2000 tokens");
        assertThatThrownBy(() -> TurnPreparer.prepare(TurnRecord.of(null, "q", "a"), COUNTER))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("assign the turn id");
    }
}
