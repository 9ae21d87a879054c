package org.agentmemory.platform.tokens;

import java.util.Map;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.json.CanonicalJson;

/**
 * Stage 0.5: token counts of a turn (spec §3 {@code count_turn}, {@code needs_recount}).
 */
public final class TurnTokens {

    private TurnTokens() {}

    /**
     * Counts a turn with {@code counter} (spec §3):
     * <ul>
     * <li>{@code user} = tokens(userMessage), {@code assistant} = tokens(assistantResponse);</li>
     * <li>{@code tools} = Σ over invocations of tokens(compact key-sorted JSON of the input, e.g. {@code {}}
     * for no arguments) + tokens(output or "") + tokens(error or "");</li>
     * <li>{@code total} = user + assistant + tools; {@code tokenizer} = {@code counter.name()}.</li>
     * </ul>
     * {@code contextUsed} is deliberately not counted; a {@code null} text counts 0. The count already on the
     * turn is ignored.
     *
     * @param turn    the turn; never {@code null}
     * @param counter the counter; never {@code null}
     * @return the counts, in tokens of {@code counter}
     * @throws ArithmeticException when a count exceeds {@link Integer#MAX_VALUE} tokens
     */
    public static TokenCount countTurn(TurnRecord turn, TokenCounter counter) {
        int user = counter.count(turn.userMessage());
        int assistant = counter.count(turn.assistantResponse());
        long tools = 0;
        for (ToolInvocationRecord invocation : turn.toolInvocations()) {
            tools += counter.count(canonicalInputJson(invocation.input()));
            tools += counter.count(invocation.output());
            tools += counter.count(invocation.error());
        }
        int toolTokens = Math.toIntExact(tools);
        int total = Math.toIntExact((long) user + assistant + toolTokens);
        return new TokenCount(user, assistant, toolTokens, total, counter.name());
    }

    /**
     * Whether a turn must be (re)counted with {@code counter} (spec §3 recount rule).
     *
     * @param turn    the turn; never {@code null}
     * @param counter the counter that would count it; never {@code null}
     * @return {@code true} when the turn has no count or its count was made by a tokenizer with another name
     */
    public static boolean needsRecount(TurnRecord turn, TokenCounter counter) {
        return turn.tokenCount() == null
                || !counter.name().equals(turn.tokenCount().tokenizer());
    }

    /** The text a tool input is counted as: compact JSON, keys sorted at every depth. */
    private static String canonicalInputJson(Map<String, Object> input) {
        return CanonicalJson.write(input);
    }
}
