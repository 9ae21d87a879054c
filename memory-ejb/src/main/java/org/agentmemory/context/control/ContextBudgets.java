package org.agentmemory.context.control;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.compaction.control.ContextWindowFitter;
import org.agentmemory.compaction.control.ModelWindows;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.validation.InputRules;

/**
 * Checks a {@link ContextRequest} and resolves its budget (spec §5.1, §5.2). Pure.
 *
 * <p>Rules: sizes are ≥ 0 and {@code maxTurns} ≥ 1 (an {@link InvalidInputException} naming the field
 * otherwise); a prompt is given as a size or as a text, not both. A window that does not exceed
 * {@code reserveOutput + reserveFixed} is accepted and leaves 0 tokens available (spec §5.1
 * {@code available = max(0, …)}), so the call answers with zero messages instead of failing. A {@code maxTurns}
 * below the spec's {@code minVerbatimTurns} (2) lowers it to {@code maxTurns}, instead of rejecting the call.
 */
public final class ContextBudgets {

    /** Longest accepted model name, in code points. */
    public static final int MAX_MODEL_CODE_POINTS = 256;

    private ContextBudgets() {}

    /**
     * @param request            the request; {@code null} = every default
     * @param windows            the model window table
     * @param counter            the memory's counter, for prompt texts
     * @param oversizeToolTokens the render-time oversize threshold (the write-time offload threshold)
     * @return the resolved budget
     * @throws InvalidInputException when a field breaks a rule
     */
    public static ResolvedBudget resolve(
            ContextRequest request, ModelWindows windows, TokenCounter counter, int oversizeToolTokens)
            throws InvalidInputException {
        ContextRequest r = request != null ? request : ContextRequest.forModel(null);
        checkModel(r.model());
        InputRules.checkOptionalId("currentChatbotId", r.currentChatbotId());
        int reserveOutput = size("reserveOutput", r.reserveOutput(), ContextBudget.DEFAULT_RESERVE_OUTPUT);
        int reserveFixed = size("reserveFixed", r.reserveFixed(), ContextBudget.DEFAULT_RESERVE_FIXED);
        int cap = size("maxHistoryTokens", r.maxHistoryTokens(), Integer.MAX_VALUE);
        int system = prompt("systemPrompt", r.systemPromptTokens(), r.systemPrompt(), counter);
        int user = prompt("userPrompt", r.userPromptTokens(), r.userPrompt(), counter);
        int maxTurns = ContextBudget.DEFAULT_MAX_TURNS;
        if (r.maxTurns() != null) {
            if (r.maxTurns() < 1) {
                throw new InvalidInputException(
                        "maxTurns",
                        "min",
                        "maxTurns is " + r.maxTurns()
                                + "; it must be 1 or more (the number of newest turns considered; default 30).");
            }
            maxTurns = r.maxTurns();
        }
        int window;
        boolean fallback = false;
        if (r.window() != null) {
            window = size("window", r.window(), 0);
        } else {
            window = windows.resolve(r.model());
            fallback = windows.isFallback(r.model());
        }
        int minVerbatim = Math.min(ContextBudget.DEFAULT_MIN_VERBATIM_TURNS, maxTurns);
        long reserves = (long) reserveOutput + reserveFixed;
        ContextBudget budget;
        int available;
        int history;
        if (window > reserves) {
            budget = budget(window, reserveOutput, reserveFixed, maxTurns, minVerbatim, oversizeToolTokens);
            available = budget.available();
            history = ContextWindowFitter.historyBudget(budget, system, user);
        } else {
            // Nothing is available; a valid budget still carries the ceiling and the activity limits.
            budget = budget(1, 0, 0, maxTurns, minVerbatim, oversizeToolTokens);
            available = 0;
            history = 0;
        }
        return new ResolvedBudget(budget, window, fallback, available, Math.min(history, cap), system, user);
    }

    private static ContextBudget budget(
            int window, int reserveOutput, int reserveFixed, int maxTurns, int minVerbatim, int oversizeToolTokens) {
        return new ContextBudget(
                window,
                reserveOutput,
                reserveFixed,
                ContextBudget.DEFAULT_HIGH_WATERMARK,
                ContextBudget.DEFAULT_LOW_WATERMARK,
                maxTurns,
                ContextBudget.DEFAULT_VERBATIM_TOKENS,
                minVerbatim,
                oversizeToolTokens,
                ContextBudget.ActivityLimit.DEFAULT);
    }

    private static void checkModel(String model) throws InvalidInputException {
        if (model == null) {
            return;
        }
        int length = CodePoints.length(model);
        if (length > MAX_MODEL_CODE_POINTS) {
            throw new InvalidInputException(
                    "model",
                    "max-length",
                    "model is " + length + " characters long; the limit is " + MAX_MODEL_CODE_POINTS
                            + " characters (Unicode code points).");
        }
        InputRules.checkText("model", model, InputRules.Controls.NONE);
    }

    private static int size(String field, Integer value, int defaultValue) throws InvalidInputException {
        if (value == null) {
            return defaultValue;
        }
        if (value < 0) {
            throw new InvalidInputException(
                    field, "min", field + " is " + value + "; it must be a number of tokens, 0 or more.");
        }
        return value;
    }

    private static int prompt(String field, Integer tokens, String text, TokenCounter counter)
            throws InvalidInputException {
        if (tokens != null && text != null) {
            throw new InvalidInputException(
                    field,
                    "one-of",
                    "Both " + field + "Tokens (" + tokens + ") and " + field
                            + " are given; send the prompt's size or its text, not both.");
        }
        if (text != null) {
            InputRules.checkText(field, text, InputRules.Controls.ANY);
            return counter.count(text);
        }
        return size(field + "Tokens", tokens, 0);
    }
}
