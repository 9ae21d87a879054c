package org.agentmemory.platform.llm;

import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/**
 * One configured OpenAI-compatible chat-completions endpoint: API root, model, bearer key and read timeout read from
 * four MicroProfile Config keys, and a MicroProfile REST Client built on first use. Thread-safe. Timing, retries and
 * fallbacks belong to the CDI bean that calls it (Fault Tolerance annotations).
 */
public final class ChatEndpoint {

    private final URI url;
    private final String model;
    private final String authorization;
    private final long readTimeoutMs;
    private volatile ChatCompletionsApi client;

    /**
     * @param config         the configuration
     * @param urlKey         key of the API root; unset or blank = no endpoint ({@link #configured()} false)
     * @param modelKey       key of the model name
     * @param defaultModel   the model when unset
     * @param keyKey         key of the bearer key; unset = no {@code Authorization} header
     * @param timeoutKey     key of the read timeout, milliseconds
     * @param defaultTimeout the timeout when unset
     * @throws IllegalStateException when the timeout is below 1 (the message names the key)
     */
    public ChatEndpoint(
            Config config,
            String urlKey,
            String modelKey,
            String defaultModel,
            String keyKey,
            String timeoutKey,
            long defaultTimeout) {
        url = config.getOptionalValue(urlKey, String.class)
                .filter(s -> !s.isBlank())
                .map(s -> URI.create(s.strip()))
                .orElse(null);
        model = config.getOptionalValue(modelKey, String.class).orElse(defaultModel);
        authorization = config.getOptionalValue(keyKey, String.class)
                .filter(s -> !s.isBlank())
                .map(key -> "Bearer " + key.strip())
                .orElse(null);
        readTimeoutMs = config.getOptionalValue(timeoutKey, Long.class).orElse(defaultTimeout);
        if (readTimeoutMs < 1) {
            throw new IllegalStateException(timeoutKey + " is " + readTimeoutMs
                    + "; it must be ≥ 1 (milliseconds). Default: " + defaultTimeout);
        }
    }

    /** @return whether an API root is configured */
    public boolean configured() {
        return url != null;
    }

    /** @return e.g. {@code gpt-4o-mini at https://api.openai.com/v1} */
    public String describe() {
        return model + " at " + url;
    }

    /**
     * @param system the system message
     * @param user   the user message
     * @return the assistant's content
     * @throws UnreadableAnswerException when the response has no usable content
     * @throws IllegalStateException     when no endpoint is configured
     * @throws RuntimeException          on an HTTP or connection failure (the REST client's exceptions)
     */
    public String complete(String system, String user) {
        if (url == null) {
            throw new IllegalStateException("no chat model endpoint is configured");
        }
        return ChatCompletionsJson.content(
                client().complete(authorization, ChatCompletionsJson.request(model, system, user)));
    }

    private ChatCompletionsApi client() {
        ChatCompletionsApi c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = RestClientBuilder.newBuilder()
                            .baseUri(url)
                            .connectTimeout(Math.min(readTimeoutMs, 5_000), TimeUnit.MILLISECONDS)
                            .readTimeout(readTimeoutMs, TimeUnit.MILLISECONDS)
                            .build(ChatCompletionsApi.class);
                }
                c = client;
            }
        }
        return c;
    }
}
