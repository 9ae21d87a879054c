package org.agentmemory.platform.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ChatCompletionsJsonTest {

    @Test
    void buildsTheOpenAiCompatibleRequestBody() {
        assertThat(ChatCompletionsJson.request("gpt-4o-mini", "sys", "Say \"hi\"\nnow"))
                .isEqualTo("{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\",\"content\":\"sys\"},"
                        + "{\"role\":\"user\",\"content\":\"Say \\\"hi\\\"\\nnow\"}],\"max_tokens\":512,"
                        + "\"temperature\":0.3,\"response_format\":{\"type\":\"json_object\"}}");
    }

    @Test
    void keepsNonAsciiTextAsIs() {
        assertThat(ChatCompletionsJson.request("m", "s", "Größe ✓")).contains("\"content\":\"Größe ✓\"");
    }

    @Test
    void requiresAModel() {
        assertThatThrownBy(() -> ChatCompletionsJson.request(" ", "s", "u"))
                .hasMessage("model is blank; name the chat model the endpoint should use");
    }

    @Test
    void extractsTheFirstChoicesContent() {
        String body = """
                {"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m",
                 "choices":[{"index":0,"message":{"role":"assistant","content":"{\\"a\\":1}"},"finish_reason":"stop"},
                            {"index":1,"message":{"role":"assistant","content":"second"}}],
                 "usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}""";
        assertThat(ChatCompletionsJson.content(body)).isEqualTo("{\"a\":1}");
    }

    @Test
    void extractsTheFirstTextPartOfContentParts() {
        String body = "{\"choices\":[{\"message\":{\"content\":[{\"type\":\"image_url\",\"image_url\":{}},"
                + "{\"type\":\"text\",\"text\":\"hello\"},{\"type\":\"text\",\"text\":\"more\"}]}}]}";
        assertThat(ChatCompletionsJson.content(body)).isEqualTo("hello");
    }

    @Test
    void reportsEndpointErrors() {
        assertThatThrownBy(() ->
                        ChatCompletionsJson.content("{\"error\":{\"message\":\"Rate limit reached\",\"code\":429}}"))
                .isInstanceOf(UnreadableAnswerException.class)
                .hasMessage("The chat-completions endpoint reported an error: Rate limit reached");
    }

    @Test
    void rejectsBodiesWithoutUsableContent() {
        assertThatThrownBy(() -> ChatCompletionsJson.content("<html>502 Bad Gateway</html>"))
                .hasMessageStartingWith("The chat-completions response is not JSON: <html>");
        assertThatThrownBy(() -> ChatCompletionsJson.content("[]")).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> ChatCompletionsJson.content("{\"choices\":[]}"))
                .hasMessageContaining("no choices[0]");
        assertThatThrownBy(() -> ChatCompletionsJson.content("{\"choices\":[{\"message\":{\"content\":null}}]}"))
                .hasMessageContaining("no text in choices[0].message.content");
        assertThatThrownBy(() -> ChatCompletionsJson.content(
                        "{\"choices\":[{\"message\":{\"content\":null,\"refusal\":\"I can't\"}}]}"))
                .hasMessageContaining("(refusal: I can't)");
        assertThatThrownBy(() -> ChatCompletionsJson.content("")).isInstanceOf(UnreadableAnswerException.class);
        assertThatThrownBy(() -> ChatCompletionsJson.content(null)).isInstanceOf(UnreadableAnswerException.class);
    }
}
