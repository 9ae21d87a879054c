package org.agentmemory.context.control;

import java.util.List;
import java.util.Locale;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.compaction.TurnTier;
import org.agentmemory.api.compaction.TurnView;
import org.agentmemory.api.context.ContextOutcome;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.compaction.control.FittedHistory;

/**
 * Builds the {@link ConversationContext} answers of the context operation from a fitted history (or the
 * plain rendering), with the commit the client sends back (spec §5.4 step 7) and a note for people. Pure.
 */
public final class ContextResults {

    private ContextResults() {}

    /**
     * The answer for a compacted history.
     *
     * @param conversationId the conversation, or {@code null} for a key without one
     * @param fitted         the fitter's result
     * @param summary        the Stage 2 summary the messages carry, as shown, or {@code null}
     * @param budget         the resolved budget
     * @param calibration    the calibration the sizes used
     * @param tokenizer      the counter's name
     * @return the answer, with the commit: prompt estimate = tokens used + system + user prompt tokens
     */
    public static ConversationContext fitted(
            Long conversationId,
            FittedHistory fitted,
            HistorySummary summary,
            ResolvedBudget budget,
            double calibration,
            String tokenizer) {
        long estimate = 0;
        List<TurnTier> tiers = new java.util.ArrayList<>(fitted.views().size());
        for (TurnView view : fitted.views()) {
            estimate += view.estimatedTokens();
            tiers.add(view.tier());
        }
        ContextOutcome outcome = ContextOutcome.valueOf(fitted.outcome().name());
        long promptEstimate = (long) fitted.tokensUsed() + budget.systemPromptTokens() + budget.userPromptTokens();
        CompactionCommit commit = new CompactionCommit(
                promptEstimate,
                fitted.boundaryTurnId(),
                fitted.stage2Needed(),
                estimate,
                fitted.droppedTurnIds().size(),
                budget.available());
        return new ConversationContext(
                conversationId,
                fitted.messages(),
                tiers,
                fitted.droppedTurnIds(),
                estimate,
                fitted.boundaryTurnId(),
                fitted.stage2Needed(),
                outcome,
                fitted.reduced(),
                fitted.budgetTooSmall(),
                note(outcome, fitted.droppedTurnIds().size(), budget, conversationId == null, summary),
                fitted.tokensUsed(),
                budget.historyBudget(),
                budget.window(),
                budget.available(),
                calibration,
                tokenizer,
                fitted.tokensUsed() <= budget.historyBudget(),
                commit,
                summary);
    }

    /**
     * The answer of the plain path (compaction off, or its omissions could not be stored): the rendered turns as
     * stored, no tiers, no commit (spec §5.4 step 4: no compaction result, no commit).
     *
     * @param conversationId the conversation
     * @param messages       the plain rendering
     * @param tokensUsed     Σ tokens of the messages' contents
     * @param budget         the resolved budget
     * @param boundaryTurnId the persisted boundary (unchanged), or {@code null}
     * @param calibration    the persisted calibration
     * @param tokenizer      the counter's name
     * @param reason         why the plain path was taken, a sentence
     * @return the answer
     */
    public static ConversationContext uncompacted(
            Long conversationId,
            List<HistoryMessage> messages,
            int tokensUsed,
            ResolvedBudget budget,
            String boundaryTurnId,
            double calibration,
            String tokenizer,
            String reason) {
        boolean within = tokensUsed <= budget.historyBudget();
        String note = reason
                + (within
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                " The %,d tokens of the messages EXCEED the history budget of %,d tokens.",
                                tokensUsed,
                                budget.historyBudget()));
        return new ConversationContext(
                conversationId,
                messages,
                List.of(),
                List.of(),
                0,
                boundaryTurnId,
                false,
                ContextOutcome.UNCOMPACTED,
                false,
                false,
                note,
                tokensUsed,
                budget.historyBudget(),
                budget.window(),
                budget.available(),
                calibration,
                tokenizer,
                within,
                null,
                null);
    }

    static String note(
            ContextOutcome outcome,
            int dropped,
            ResolvedBudget budget,
            boolean noConversation,
            HistorySummary summary) {
        String note = note(outcome, dropped, budget, noConversation);
        if (summary == null) {
            return note;
        }
        return (note == null ? "" : note + " ")
                + String.format(
                        Locale.ROOT,
                        "A summary of the %,d earliest turn(s), through turn %s, opens the first message in their place%s.",
                        summary.turnCount(),
                        summary.lastTurnId(),
                        summary.shortened() ? " (its newest lines only, to fit its share of the budget)" : "");
    }

    static String note(ContextOutcome outcome, int dropped, ResolvedBudget budget, boolean noConversation) {
        String limits = String.format(
                Locale.ROOT,
                "the history budget of %,d tokens (window %,d, available %,d, prompts %,d + %,d)",
                budget.historyBudget(),
                budget.window(),
                budget.available(),
                budget.systemPromptTokens(),
                budget.userPromptTokens());
        return switch (outcome) {
            case FITTED ->
                dropped == 0
                        ? null
                        : String.format(
                                Locale.ROOT,
                                "%,d older turn(s) were not shown: beyond the maxTurns ceiling or the watermark of %s.",
                                dropped,
                                limits);
            case TRIMMED -> String.format(Locale.ROOT, "%,d older turn(s) were left out to fit %s.", dropped, limits);
            case REDUCED ->
                String.format(
                        Locale.ROOT,
                        "Only the newest turn fits %s, and only reduced: its tool outputs"
                                + " are omission notices and its texts may be cut in the middle; %,d older turn(s) were left out."
                                + " Raise the window or lower the reserves or prompt sizes to see more.",
                        limits,
                        dropped);
            case BUDGET_TOO_SMALL ->
                String.format(
                        Locale.ROOT,
                        "No message fits %s: not even the newest turn, reduced."
                                + " Raise the window or maxHistoryTokens, or lower the reserves or prompt sizes.",
                        limits);
            case NOTHING_TO_RENDER ->
                noConversation
                        ? "No conversation exists for this key yet; the history is empty."
                        : "The conversation has no turn with an assistant response to show.";
            case UNCOMPACTED -> null;
        };
    }
}
