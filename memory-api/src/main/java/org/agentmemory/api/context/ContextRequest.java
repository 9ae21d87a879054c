package org.agentmemory.api.context;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What a bot asks for when it prepares a round: the conversation history compacted and rendered into the
 * token budget of its model (spec §5, §8). Every field is optional; sizes are tokens of the memory's counter
 * (the configured tokenizer, {@code o200k_base} by default).
 *
 * <p><b>Budget</b> (spec §5.1, §5.2). The window is {@code window} when given, else the window of
 * {@code model} by longest prefix (built-in table plus the configured {@code memory.compaction.model-windows}),
 * else 32000. {@code available = max(0, window − reserveOutput − reserveFixed)}; the history budget is
 * {@code H = max(0, floor(0.80 × available) − systemPromptTokens − userPromptTokens)}, lowered to
 * {@code maxHistoryTokens} when that is given. The rendered messages never exceed H. A window that does not
 * exceed the reserves is not an error: it leaves nothing available, and the answer has zero messages and says
 * so.
 *
 * <p>The prompts are given either as sizes ({@code systemPromptTokens}, {@code userPromptTokens}) or as texts
 * ({@code systemPrompt}, {@code userPrompt}) that the service counts; giving both for the same prompt is an
 * error.
 *
 * @param model              the model name (e.g. {@code gpt-4o}, {@code claude-sonnet-4}) whose window to use;
 *                           {@code null} when {@code window} is given or unknown (then 32000)
 * @param window             the provider's context window, tokens, ≥ 0; wins over {@code model}
 * @param reserveOutput      tokens kept for the model's output, ≥ 0; {@code null} = 8192
 * @param reserveFixed       tokens kept for system prompt, tool schemas and framing, ≥ 0; {@code null} = 4096
 * @param maxTurns           ceiling on the turns considered, ≥ 1; {@code null} = 30. Below 2 it also lowers the
 *                           number of turns kept verbatim regardless of size
 * @param maxHistoryTokens   an explicit cap on the history budget H, tokens, ≥ 0; {@code null} = no cap
 * @param systemPromptTokens tokens of the system prompt the bot will send, ≥ 0; {@code null} = 0 (or the count
 *                           of {@code systemPrompt})
 * @param userPromptTokens   tokens of the new user prompt, ≥ 0; {@code null} = 0 (or the count of
 *                           {@code userPrompt})
 * @param systemPrompt       the system prompt text, counted by the service; {@code null} when the size is given
 * @param userPrompt         the new user prompt text, counted by the service; {@code null} when the size is given
 * @param currentChatbotId   the agent asking (spec §8.5 foreign turns): turns of other agents are labelled
 *                           {@code [agent:…]} or left out; {@code null} = the conversation's own agent
 * @param includeOtherAgents whether other agents' turns are shown (labelled); {@code null} = {@code true}
 */
@Schema(
        description = "The budget and rendering parameters of a context call; every field is optional. Sizes are"
                + " tokens of the memory's counter (memory.tokenizer, default o200k_base). available = max(0, window −"
                + " reserveOutput − reserveFixed); the history budget is max(0, floor(0.80 × available) − systemPromptTokens"
                + " − userPromptTokens), lowered to maxHistoryTokens when given. A budget too small is not an error: the"
                + " answer has zero messages and a note.")
public record ContextRequest(
        @Schema(
                description = "The model whose context window to use, by longest prefix of the built-in table and"
                        + " memory.compaction.model-windows (e.g. gpt-4o, claude-sonnet-4); at most 256 code points, no"
                        + " control characters. Absent, null or unknown with no window: a 32,000-token window.")
        String model,

        @Schema(description = "The provider's context window, tokens, 0 or more; wins over model.")
        Integer window,

        @Schema(description = "Tokens kept for the model's output, 0 or more; absent or null = 8192.")
        Integer reserveOutput,

        @Schema(
                description = "Tokens kept for the system prompt, tool schemas and framing, 0 or more; absent or"
                        + " null = 4096.")
        Integer reserveFixed,

        @Schema(
                description = "Ceiling on the newest turns considered, 1 or more; absent or null = 30. Below 2 it"
                        + " also lowers the number of turns kept verbatim regardless of size.")
        Integer maxTurns,

        @Schema(description = "Cap on the history budget, tokens, 0 or more; absent or null = no cap.")
        Integer maxHistoryTokens,

        @Schema(
                description = "Tokens of the system prompt the bot will send, 0 or more; absent or null = 0 (or the"
                        + " count of systemPrompt). Not together with systemPrompt.")
        Integer systemPromptTokens,

        @Schema(
                description = "Tokens of the new user prompt, 0 or more; absent or null = 0 (or the count of"
                        + " userPrompt). Not together with userPrompt.")
        Integer userPromptTokens,

        @Schema(
                description =
                        "The system prompt text, counted by the service; not together with" + " systemPromptTokens.")
        String systemPrompt,

        @Schema(
                description =
                        "The new user prompt text, counted by the service; not together with" + " userPromptTokens.")
        String userPrompt,

        @Schema(
                description = "The agent asking (1 to 128 code points): turns of other agents are labelled"
                        + " [agent:…] or left out. Absent or null = the conversation's own agent.")
        String currentChatbotId,

        @Schema(description = "Whether other agents' turns are shown (labelled); absent or null = true.")
        Boolean includeOtherAgents)
        implements Serializable {

    /**
     * @param model the model name, e.g. {@code gpt-4o}; {@code null} for the 32000-token fallback window
     * @return a request with every other field at its default
     */
    public static ContextRequest forModel(String model) {
        return new ContextRequest(model, null, null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * @param window the context window, tokens
     * @return a request with every other field at its default
     */
    public static ContextRequest forWindow(int window) {
        return new ContextRequest(null, window, null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * @param systemTokens tokens of the system prompt
     * @param userTokens   tokens of the user prompt
     * @return a copy with both prompt sizes set and the prompt texts cleared
     */
    public ContextRequest withPromptTokens(int systemTokens, int userTokens) {
        return new ContextRequest(
                model,
                window,
                reserveOutput,
                reserveFixed,
                maxTurns,
                maxHistoryTokens,
                systemTokens,
                userTokens,
                null,
                null,
                currentChatbotId,
                includeOtherAgents);
    }

    /**
     * @param system the system prompt text, or {@code null}
     * @param user   the user prompt text, or {@code null}
     * @return a copy with both prompt texts set and the prompt sizes cleared
     */
    public ContextRequest withPrompts(String system, String user) {
        return new ContextRequest(
                model,
                window,
                reserveOutput,
                reserveFixed,
                maxTurns,
                maxHistoryTokens,
                null,
                null,
                system,
                user,
                currentChatbotId,
                includeOtherAgents);
    }

    /**
     * @param tokens the cap on the history budget, tokens
     * @return a copy with {@code maxHistoryTokens} replaced
     */
    public ContextRequest withMaxHistoryTokens(Integer tokens) {
        return new ContextRequest(
                model,
                window,
                reserveOutput,
                reserveFixed,
                maxTurns,
                tokens,
                systemPromptTokens,
                userPromptTokens,
                systemPrompt,
                userPrompt,
                currentChatbotId,
                includeOtherAgents);
    }

    /**
     * @param output tokens reserved for the output, or {@code null} for the default
     * @param fixed  tokens reserved for the fixed prompt parts, or {@code null} for the default
     * @return a copy with both reserves replaced
     */
    public ContextRequest withReserves(Integer output, Integer fixed) {
        return new ContextRequest(
                model,
                window,
                output,
                fixed,
                maxTurns,
                maxHistoryTokens,
                systemPromptTokens,
                userPromptTokens,
                systemPrompt,
                userPrompt,
                currentChatbotId,
                includeOtherAgents);
    }

    /**
     * @param turns the ceiling on the turns considered, or {@code null} for the default
     * @return a copy with {@code maxTurns} replaced
     */
    public ContextRequest withMaxTurns(Integer turns) {
        return new ContextRequest(
                model,
                window,
                reserveOutput,
                reserveFixed,
                turns,
                maxHistoryTokens,
                systemPromptTokens,
                userPromptTokens,
                systemPrompt,
                userPrompt,
                currentChatbotId,
                includeOtherAgents);
    }

    /**
     * @param chatbotId     the agent asking, or {@code null} for the conversation's agent
     * @param includeOthers whether other agents' turns are shown
     * @return a copy with the current agent and the foreign-turn switch replaced
     */
    public ContextRequest withCurrentChatbot(String chatbotId, Boolean includeOthers) {
        return new ContextRequest(
                model,
                window,
                reserveOutput,
                reserveFixed,
                maxTurns,
                maxHistoryTokens,
                systemPromptTokens,
                userPromptTokens,
                systemPrompt,
                userPrompt,
                chatbotId,
                includeOthers);
    }
}
