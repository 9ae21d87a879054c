package org.agentmemory.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.junit.jupiter.api.Test;

/** The hand-written turn serializers write exactly what the mapper's generic record serializer writes. */
class TurnSerializersTest {

    private static String fast(Object value) throws Exception {
        return RestJson.mapper().writeValueAsString(value);
    }

    private static String generic(Object value) throws Exception {
        return RestJson.generic().writeValueAsString(value);
    }

    private static TurnRecord full() {
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("deployment", "payments \"prod\"");
        input.put("tail", 200);
        input.put("ratio", new java.math.BigDecimal("0.25"));
        input.put("nested", Map.of("list", List.of(1, "two")));
        input.put("nothing", null);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("dia_id", "D1:3");
        metadata.put("emoji", "😀 漢字");
        ToolInvocationRecord failed = new ToolInvocationRecord(
                "kubectl_logs",
                input,
                null,
                InvocationStatus.ERROR,
                "timeout after 30 s",
                30_000L,
                12,
                Map.of("output", "sha256:ab"),
                "wm-1");
        ToolInvocationRecord ok = ToolInvocationRecord.of("grep", Map.of(), "line\nwith\ttabs and \u0001 control");
        return new TurnRecord(
                "t/1 %2F \"q\"",
                42L,
                "user é",
                "Why did the rollout fail? 😀",
                "Because…\n",
                "context",
                Arrays.asList("kubectl_logs", null, "grep"),
                Instant.parse("1500-03-01T12:00:00.123456Z"),
                metadata,
                "bot",
                List.of(failed, ok),
                "boom",
                new TokenCount(7, 9, 3, 19, "o200k_base"),
                TurnState.SUMMARIZED,
                2,
                "1");
    }

    @Test
    void aTurnWithEveryComponentIsWrittenAsTheGenericSerializerWritesIt() throws Exception {
        TurnRecord turn = full();
        assertThat(fast(turn)).isEqualTo(generic(turn));
        assertThat(fast(turn))
                .contains(
                        "\"state\":\"summarized\"",
                        "\"status\":\"error\"",
                        "\"toolsUsed\":[\"kubectl_logs\",null,\"grep\"]");
    }

    @Test
    void aTurnWithNothingSetIsWrittenAsTheGenericSerializerWritesIt() throws Exception {
        TurnRecord empty = new TurnRecord(
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
        assertThat(fast(empty)).isEqualTo(generic(empty));
        List<ToolInvocationRecord> withNull = new ArrayList<>();
        withNull.add(null);
        TurnRecord nullInvocation = empty.withToolInvocations(withNull);
        assertThat(fast(nullInvocation)).isEqualTo(generic(nullInvocation));
        ToolInvocationRecord bare = new ToolInvocationRecord(null, null, null, null, null, null, null, null, null);
        assertThat(fast(bare)).isEqualTo(generic(bare));
        TokenCount count = new TokenCount(0, 0, 0, 0, null);
        assertThat(fast(count)).isEqualTo(generic(count));
    }

    @Test
    void aHistoryAndItsTurnsInsideOtherValuesAreWrittenAsBefore() throws Exception {
        ConversationHistory history = new ConversationHistory(
                9,
                new ConversationKey("default", null, "u", "s"),
                Instant.parse("2026-12-02T07:07:51.698851Z"),
                Instant.parse("2026-12-02T07:07:51.822303Z"),
                Map.of("owner", "x"),
                3,
                List.of(full(), TurnRecord.of("t2", "hi", "hello")));
        assertThat(fast(history)).isEqualTo(generic(history));
        Map<String, Object> wrapper = Map.of("turns", List.of(full()));
        assertThat(fast(wrapper)).isEqualTo(generic(wrapper));
        // Read back with the same strict mapper: the API's own input form.
        assertThat(RestJson.mapper().readValue(fast(full()), TurnRecord.class)).isEqualTo(full());
    }

    @Test
    void enumsAreLowerCaseWhateverTheDefaultLocale() throws Exception {
        java.util.Locale before = java.util.Locale.getDefault();
        java.util.Locale.setDefault(java.util.Locale.forLanguageTag("tr-TR"));
        try {
            for (TurnState state : TurnState.values()) {
                String json = RestJson.mapper().writeValueAsString(state);
                assertThat(json).isEqualTo("\"" + state.name().toLowerCase(java.util.Locale.ROOT) + "\"");
                assertThat(RestJson.mapper().readValue(json, TurnState.class)).isEqualTo(state);
            }
            for (InvocationStatus status : InvocationStatus.values()) {
                String json = RestJson.mapper().writeValueAsString(status);
                assertThat(RestJson.mapper().readValue(json, InvocationStatus.class))
                        .isEqualTo(status);
            }
            assertThat(fast(full())).contains("\"state\":\"summarized\"");
        } finally {
            java.util.Locale.setDefault(before);
        }
    }
}
