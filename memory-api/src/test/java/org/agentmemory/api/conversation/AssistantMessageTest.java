package org.agentmemory.api.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.omission.Omission;
import org.junit.jupiter.api.Test;

/** The transfer records of spec §1.1 (assistant message, tool call) and §1.3 (omission). */
class AssistantMessageTest {

    @Test
    void readsMissingCollectionsAsEmptyAndCopiesTheRest() {
        List<ToolCall> calls = new ArrayList<>(List.of(ToolCall.of("t", null, null)));
        Map<String, Object> usage = new HashMap<>(Map.of("input_tokens", 10));
        AssistantMessage message = new AssistantMessage("x", calls, usage, null, null, null, null, null);
        calls.clear();
        usage.clear();
        assertThat(message.toolCalls()).hasSize(1);
        assertThat(message.usage()).containsEntry("input_tokens", 10);
        assertThat(AssistantMessage.ofText("x").toolCalls()).isEmpty();
        assertThat(AssistantMessage.ofText("x").usage()).isNull();
        assertThatThrownBy(() -> message.usage().put("k", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toolCallNeedsANameAndReadsMissingArgumentsAsEmpty() {
        assertThatThrownBy(() -> ToolCall.of(null, null, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("name");
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("nullable", null);
        assertThat(ToolCall.of("t", arguments, null).arguments()).containsEntry("nullable", null);
        assertThat(ToolCall.of("t", null, null).arguments()).isEmpty();
    }

    @Test
    void omissionNeedsItsIdentifyingFields() {
        assertThat(new Omission("om_0123456789abcdef", "c", "t", null, Omission.OUTPUT).field())
                .isEqualTo("output");
        assertThatThrownBy(() -> new Omission(null, "c", "t", "tool", "output"))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("contentId");
        assertThatThrownBy(() -> new Omission("om_0123456789abcdef", "c", null, "tool", "output"))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("turnId");
    }

    @Test
    void survivesJavaSerialization() throws Exception {
        AssistantMessage message = new AssistantMessage(
                "answer",
                List.of(new ToolCall("search", Map.of("q", "x"), Map.of("_tee", Map.of("key", "wm")), null, 0.25)),
                Map.of("input_tokens", 12),
                "m",
                "p",
                "stop",
                1.5,
                "turn-1");
        Omission omission = new Omission("om_0123456789abcdef", "content", "turn-1", "search", "output");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(message);
            out.writeObject(omission);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(message);
            assertThat(in.readObject()).isEqualTo(omission);
        }
    }
}
