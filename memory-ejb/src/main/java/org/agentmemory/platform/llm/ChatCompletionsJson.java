package org.agentmemory.platform.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * The JSON of an OpenAI-compatible {@code POST /v1/chat/completions} call, without transport.
 *
 * <p>Request body, keys in this order (compact JSON):
 * <pre>
 * {"model":M,"messages":[{"role":"system","content":S},{"role":"user","content":U}],
 *  "max_tokens":512,"temperature":0.3,"response_format":{"type":"json_object"}}
 * </pre>
 * (spec §10.4: max_tokens 512, temperature 0.3; structured output is requested as JSON mode, which
 * OpenAI, vLLM, Ollama's OpenAI API and most gateways accept).
 *
 * <p>Response: the content of {@code choices[0].message.content}; when a provider sends content parts
 * instead of a string, the first part of type {@code text} (spec §10.4 step 3 "the first text block").
 */
public final class ChatCompletionsJson {

    /** {@code max_tokens} of a reflection call (spec §10.4). */
    public static final int MAX_TOKENS = 512;
    /** {@code temperature} of a reflection call (spec §10.4). */
    public static final double TEMPERATURE = 0.3;

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private ChatCompletionsJson() {}

    /**
     * @param model        the model name, e.g. {@code gpt-4o-mini}; never blank
     * @param systemPrompt the system message, e.g. the system prompt
     * @param userPrompt   the user message, e.g. the user prompt
     * @return the request body as compact JSON
     * @throws IllegalArgumentException when the model is {@code null} or blank
     */
    public static String request(String model, String systemPrompt, String userPrompt) {
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("model is " + (model == null ? "missing" : "blank")
                    + "; name the chat model the endpoint should use");
        }
        ObjectNode body = MAPPER.createObjectNode();
        body.put("model", model);
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", systemPrompt);
        messages.addObject().put("role", "user").put("content", userPrompt);
        body.put("max_tokens", MAX_TOKENS);
        body.put("temperature", TEMPERATURE);
        body.putObject("response_format").put("type", "json_object");
        try {
            return MAPPER.writeValueAsString(body);
        } catch (IOException e) {
            throw new IllegalStateException("could not write a chat-completions request: " + e.getMessage(), e);
        }
    }

    /**
     * @param responseBody the HTTP response body
     * @return the assistant's content (never blank)
     * @throws UnreadableAnswerException when the body is not JSON, reports an {@code error}, has no choice,
     *                                  or the first choice has no non-blank text content; the message says which
     */
    public static String content(String responseBody) {
        JsonNode root;
        try {
            root = MAPPER.readTree(responseBody == null ? "" : responseBody);
        } catch (IOException e) {
            throw new UnreadableAnswerException(
                    "The chat-completions response is not JSON: "
                            + UnreadableAnswerException.excerpt(String.valueOf(responseBody)),
                    e);
        }
        if (root == null || !root.isObject()) {
            throw new UnreadableAnswerException("The chat-completions response is not a JSON object: "
                    + UnreadableAnswerException.excerpt(String.valueOf(responseBody)));
        }
        JsonNode error = root.get("error");
        if (error != null && !error.isNull()) {
            String message = error.isObject() && error.path("message").isTextual()
                    ? error.get("message").asText()
                    : error.toString();
            throw new UnreadableAnswerException("The chat-completions endpoint reported an error: " + message);
        }
        JsonNode choices = root.get("choices");
        if (choices == null || !choices.isArray() || choices.isEmpty()) {
            throw new UnreadableAnswerException("The chat-completions response has no choices[0]: "
                    + UnreadableAnswerException.excerpt(responseBody));
        }
        JsonNode content = choices.get(0).path("message").path("content");
        String text = null;
        if (content.isTextual()) {
            text = content.asText();
        } else if (content.isArray()) {
            for (JsonNode part : content) {
                if ("text".equals(part.path("type").asText())
                        && part.path("text").isTextual()) {
                    text = part.get("text").asText();
                    break;
                }
            }
        }
        if (text == null || text.isBlank()) {
            String refusal = choices.get(0).path("message").path("refusal").asText("");
            throw new UnreadableAnswerException("The chat-completions response has no text in "
                    + "choices[0].message.content" + (refusal.isBlank() ? "" : " (refusal: " + refusal + ")") + ": "
                    + UnreadableAnswerException.excerpt(responseBody));
        }
        return text;
    }
}
