package org.agentmemory.episodic.control;

/**
 * One call to a chat model, independent of transport: a prompt in, the assistant's content string out.
 * A REST client over an OpenAI-compatible endpoint implements it as
 * {@code prompt -> ChatCompletionsJson.content(post(ChatCompletionsJson.request(model, ReflectionPrompt.SYSTEM, prompt)))}.
 */
@FunctionalInterface
public interface ChatCompletion {

    /**
     * @param prompt the user prompt
     * @return the assistant's content
     * @throws Exception on any failure (timeout, HTTP error, unreadable body); callers treat every failure alike
     */
    String complete(String prompt) throws Exception;
}
