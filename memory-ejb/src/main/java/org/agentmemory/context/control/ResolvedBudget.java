package org.agentmemory.context.control;

import org.agentmemory.api.compaction.ContextBudget;

/**
 * The budget of one context call, resolved from a request ({@link ContextBudgets#resolve}). Sizes in tokens.
 *
 * @param budget             the compaction budget (ceiling, verbatim tier, activity limits); always valid, also
 *                           when the requested window leaves nothing available
 * @param window             the window the call asked for or its model resolved to (the requested value, even
 *                           when it does not exceed the reserves)
 * @param windowFallback     the model was unknown (or absent) and got the 32000-token fallback window
 * @param available          {@code max(0, window − reserveOutput − reserveFixed)}
 * @param historyBudget      H: {@code max(0, floor(highWatermark × available) − system − user)}, lowered to the
 *                           request's {@code maxHistoryTokens}
 * @param systemPromptTokens the system prompt's size (given or counted)
 * @param userPromptTokens   the user prompt's size (given or counted)
 */
public record ResolvedBudget(
        ContextBudget budget,
        int window,
        boolean windowFallback,
        int available,
        int historyBudget,
        int systemPromptTokens,
        int userPromptTokens) {}
