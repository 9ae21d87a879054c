package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentmemory.api.conversation.AssistantMessage;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolCall;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Spec §1.1 {@code from_ai_message}, FEAT-538 included. */
class AiMessageTurnsTest {

    private static AssistantMessage message(String text, String turnId, ToolCall... calls) {
        return new AssistantMessage(
                text,
                List.of(calls),
                Map.of("input_tokens", 1200, "output_tokens", 80),
                "claude-sonnet-4-5",
                "anthropic",
                "end_turn",
                2.75,
                turnId);
    }

    private static TurnRecord build(
            AssistantMessage response, String turnId, String assistantText, List<ToolInvocationRecord> explicit) {
        return AiMessageTurns.fromAiMessage(
                "what's the weather?", response, "user-1", "weather-bot", "ctx", turnId, assistantText, null, explicit);
    }

    @Nested
    class AssistantText {

        @Test
        void explicitTextWins() {
            assertThat(build(message("from response", null), null, "streamed text", null)
                            .assistantResponse())
                    .isEqualTo("streamed text");
        }

        @Test
        void explicitEmptyTextStillWins() {
            assertThat(build(message("from response", null), null, "", null).assistantResponse())
                    .isEmpty();
        }

        @Test
        void responseTextIsTheFallback() {
            assertThat(build(message("from response", null), null, null, null).assistantResponse())
                    .isEqualTo("from response");
        }

        @Test
        void emptyWhenNeitherIsGiven() {
            assertThat(build(message(null, null), null, null, null).assistantResponse())
                    .isEmpty();
        }
    }

    @Nested
    class TurnId {

        @Test
        void explicitIdWins() {
            assertThat(build(message("a", "resp-id"), "explicit-id", null, null).turnId())
                    .isEqualTo("explicit-id");
        }

        @Test
        void responseIdIsTheFallback() {
            assertThat(build(message("a", "resp-id"), null, null, null).turnId())
                    .isEqualTo("resp-id");
        }

        @Test
        void emptyIdsCountAsAbsent() {
            assertThat(build(message("a", "resp-id"), "", null, null).turnId()).isEqualTo("resp-id");
            TurnRecord generated = AiMessageTurns.fromAiMessage(
                    "q", message("a", ""), null, null, null, "", null, null, null, () -> "generated");
            assertThat(generated.turnId()).isEqualTo("generated");
        }

        @Test
        void generatesARandomUuid4Otherwise() {
            String first = build(message("a", null), null, null, null).turnId();
            String second = build(message("a", null), null, null, null).turnId();
            assertThat(UUID.fromString(first).version()).isEqualTo(4);
            assertThat(UUID.fromString(first).toString()).isEqualTo(first);
            assertThat(second).isNotEqualTo(first);
        }
    }

    @Test
    void copiesTheConversationFieldsAndLeavesWritePathFieldsEmpty() {
        TurnRecord turn = AiMessageTurns.fromAiMessage(
                "hi", message("hello", "t"), "user-1", "bot-1", "context", null, null, "round failed", null);
        assertThat(turn.userMessage()).isEqualTo("hi");
        assertThat(turn.userId()).isEqualTo("user-1");
        assertThat(turn.chatbotId()).isEqualTo("bot-1");
        assertThat(turn.contextUsed()).isEqualTo("context");
        assertThat(turn.error()).isEqualTo("round failed");
        assertThat(turn.sequence()).isNull();
        assertThat(turn.timestamp()).isNull();
        assertThat(turn.tokenCount()).isNull();
        assertThat(turn.state()).isNull();
        assertThat(turn.schemaVersion()).isNull();
        assertThat(turn.normVersion()).isNull();
    }

    @Test
    void metadataHoldsModelProviderUsageFinishReasonAndResponseTimeInOrder() {
        TurnRecord turn = build(message("a", null), null, null, null);
        assertThat(turn.metadata().keySet())
                .containsExactly("model", "provider", "usage", "finish_reason", "response_time");
        assertThat(turn.metadata())
                .containsEntry("model", "claude-sonnet-4-5")
                .containsEntry("provider", "anthropic")
                .containsEntry("usage", Map.of("input_tokens", 1200, "output_tokens", 80))
                .containsEntry("finish_reason", "end_turn")
                .containsEntry("response_time", 2.75);
    }

    @Test
    void metadataKeepsNullValues() {
        TurnRecord turn = build(AssistantMessage.ofText("a"), null, null, null);
        assertThat(turn.metadata())
                .hasSize(5)
                .containsEntry("model", null)
                .containsEntry("usage", null)
                .containsEntry("response_time", null);
    }

    @Test
    void toolsUsedAreTheCallNamesInOrder() {
        TurnRecord turn = build(
                message(
                        "a",
                        null,
                        ToolCall.of("geocode", null, null),
                        ToolCall.of("forecast", null, null),
                        ToolCall.of("geocode", null, null)),
                null,
                null,
                null);
        assertThat(turn.toolsUsed()).containsExactly("geocode", "forecast", "geocode");
    }

    @Nested
    class DerivedInvocations {

        @Test
        void onePerCallWithNameAndArguments() {
            TurnRecord turn = build(
                    message(
                            "a",
                            null,
                            ToolCall.of("geocode", Map.of("city", "Lyon"), "45.76,4.83"),
                            ToolCall.of("forecast", null, null)),
                    null,
                    null,
                    null);
            assertThat(turn.toolInvocations()).hasSize(2);
            ToolInvocationRecord first = turn.toolInvocations().get(0);
            assertThat(first.toolName()).isEqualTo("geocode");
            assertThat(first.input()).isEqualTo(Map.of("city", "Lyon"));
            assertThat(first.output()).isEqualTo("45.76,4.83");
            assertThat(first.status()).isEqualTo(InvocationStatus.COMPLETED);
            assertThat(first.error()).isNull();
            assertThat(first.elapsedMs()).isNull();
            assertThat(first.outputChars()).isNull();
            assertThat(first.omitted()).isEmpty();
            assertThat(turn.toolInvocations().get(1).input()).isEmpty();
        }

        @Test
        void coercesResultsToText() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("temp", 21.5);
            map.put("city", "\u6771\u4eac");
            map.put("alerts", List.of(Map.of("z", 1, "a", 2)));
            assertThat(AiMessageTurns.resultText(null)).isNull();
            assertThat(AiMessageTurns.resultText("  raw text \n")).isEqualTo("  raw text \n");
            assertThat(AiMessageTurns.resultText(map))
                    .isEqualTo("{\"alerts\":[{\"a\":2,\"z\":1}],\"city\":\"\u6771\u4eac\",\"temp\":21.5}");
            assertThat(AiMessageTurns.resultText(List.of(3, "x", true))).isEqualTo("[3,\"x\",true]");
            assertThat(AiMessageTurns.resultText(42)).isEqualTo("42");
            assertThat(AiMessageTurns.resultText(new BigDecimal("1.50"))).isEqualTo("1.50");
            assertThat(AiMessageTurns.resultText(true)).isEqualTo("true");
            assertThat(AiMessageTurns.resultText(UUID.fromString("00000000-0000-4000-8000-000000000001")))
                    .isEqualTo("00000000-0000-4000-8000-000000000001");
        }

        @Test
        void coercesNestedMapsWithNullValues() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("b", null);
            map.put("a", new ArrayList<>(List.of(1)));
            assertThat(AiMessageTurns.resultText(map)).isEqualTo("{\"a\":[1],\"b\":null}");
        }

        @Test
        void rejectsResultsThatAreNotJson() {
            assertThatThrownBy(() -> AiMessageTurns.resultText(Map.of("x", new Object())))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Tool result is not JSON");
        }

        @Test
        void statusIsErrorExactlyWhenTheCallHasANonEmptyError() {
            ToolInvocationRecord failed = AiMessageTurns.toInvocation(new ToolCall("t", null, null, "timeout", null));
            ToolInvocationRecord emptyError = AiMessageTurns.toInvocation(new ToolCall("t", null, "ok", "", null));
            ToolInvocationRecord fine = AiMessageTurns.toInvocation(new ToolCall("t", null, "ok", null, null));
            assertThat(failed.status()).isEqualTo(InvocationStatus.ERROR);
            assertThat(failed.error()).isEqualTo("timeout");
            assertThat(emptyError.status()).isEqualTo(InvocationStatus.COMPLETED);
            assertThat(emptyError.error()).isEmpty();
            assertThat(fine.status()).isEqualTo(InvocationStatus.COMPLETED);
        }

        @Test
        void elapsedIsExecutionSecondsTimesAThousandTruncated() {
            assertThat(elapsed(1.2349)).isEqualTo(1234L);
            assertThat(elapsed(0.0009)).isZero();
            assertThat(elapsed(2.0)).isEqualTo(2000L);
            // 1.005 * 1000 is 1004.9999999999999 in binary floating point: truncation gives 1004, as int() in Python.
            assertThat(elapsed(1.005)).isEqualTo(1004L);
            assertThat(elapsed(-0.0015)).isEqualTo(-1L);
            assertThat(elapsed(null)).isNull();
            assertThat(elapsed(Double.NaN)).isNull();
            assertThat(elapsed(Double.POSITIVE_INFINITY)).isNull();
        }

        private Long elapsed(Double seconds) {
            return AiMessageTurns.toInvocation(new ToolCall("t", null, null, null, seconds))
                    .elapsedMs();
        }

        @Test
        void takesTheWorkingMemoryKeyFromTheTee() {
            assertThat(wmKey(Map.of("rows", 3, "_tee", Map.of("key", "wm:abc", "size", 10))))
                    .isEqualTo("wm:abc");
            assertThat(wmKey(Map.of("_tee", Map.of("key", 7)))).isEqualTo("7");
            assertThat(wmKey(Map.of("_tee", Map.of("size", 10)))).isNull();
            assertThat(wmKey(Map.of("_tee", "wm:abc"))).isNull();
            assertThat(wmKey(Map.of("key", "wm:abc"))).isNull();
            assertThat(wmKey(List.of(Map.of("_tee", Map.of("key", "x"))))).isNull();
            assertThat(wmKey("{\"_tee\": {\"key\": \"x\"}}")).isNull();
            assertThat(wmKey(null)).isNull();
        }

        @Test
        void teeResultIsStillWrittenAsJson() {
            ToolInvocationRecord invocation = AiMessageTurns.toInvocation(
                    ToolCall.of("sql", null, Map.of("_tee", Map.of("key", "wm:1"), "rows", 2)));
            assertThat(invocation.output()).isEqualTo("{\"_tee\":{\"key\":\"wm:1\"},\"rows\":2}");
            assertThat(invocation.wmKey()).isEqualTo("wm:1");
        }

        private String wmKey(Object result) {
            return AiMessageTurns.toInvocation(ToolCall.of("t", null, result)).wmKey();
        }
    }

    @Nested
    class ExplicitInvocations {

        @Test
        void replaceTheDerivedOnesInsteadOfBeingAdded() {
            ToolInvocationRecord explicit = ToolInvocationRecord.of("explicit_tool", Map.of("x", 1), "explicit output");
            TurnRecord turn = build(
                    message("a", null, ToolCall.of("derived_a", null, "1"), ToolCall.of("derived_b", null, "2")),
                    null,
                    null,
                    List.of(explicit));
            assertThat(turn.toolInvocations()).containsExactly(explicit);
            assertThat(turn.toolsUsed()).containsExactly("derived_a", "derived_b");
        }

        @Test
        void anEmptyExplicitListAlsoReplaces() {
            TurnRecord turn = build(message("a", null, ToolCall.of("derived", null, "1")), null, null, List.of());
            assertThat(turn.toolInvocations()).isEmpty();
        }

        @Test
        void nullMeansDerive() {
            TurnRecord turn = build(message("a", null, ToolCall.of("derived", null, "1")), null, null, null);
            assertThat(turn.toolInvocations())
                    .extracting(ToolInvocationRecord::toolName)
                    .containsExactly("derived");
        }
    }

    @Test
    void requiresAResponse() {
        assertThatThrownBy(() -> AiMessageTurns.fromAiMessage("q", null, null, null, null, null, null, null, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("response");
    }
}
