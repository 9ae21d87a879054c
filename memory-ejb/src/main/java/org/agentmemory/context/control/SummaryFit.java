package org.agentmemory.context.control;

import java.util.ArrayList;
import java.util.List;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.control.CompactionOptions;
import org.agentmemory.compaction.control.ContextWindowFitter;
import org.agentmemory.compaction.control.FittedHistory;
import org.agentmemory.compaction.control.HistoryRenderer;
import org.agentmemory.compaction.control.SummaryText;
import org.agentmemory.platform.tokens.TokenCounter;

/**
 * Puts a conversation's Stage 2 summary in place of the turns it covers (issue 35 item 4), within the history budget
 * H. Taken only when the plain fit left turns out: the summary then opens the first user message as a marked block
 * ({@link SummaryText#block}, then a blank line), and the turns after the ones it replaces are fitted into what the
 * block leaves of H. It replaces the turns it covers that the plain fit dropped, never more: a summary written after
 * a call with a tighter budget may cover turns this call can show, and those stay verbatim.
 *
 * <p><b>Share.</b> The block takes at most {@code H − floor(H × lowWatermark / highWatermark)} tokens (a quarter of H
 * with the spec §5.1 defaults 0.60 and 0.80: the turns keep at least the low watermark's part of what the high
 * watermark gives the history, the use the spec reserves the low watermark for); a longer summary shows its newest
 * lines that fit, and none when not even its newest line fits.
 *
 * <p><b>Guarantee</b> (as {@link ContextWindowFitter}'s): {@code ceil(max(1, calibration) × Σ tokens(content)) ≤ H},
 * measured with the counter over exactly the returned messages, the block included. When a measured composition
 * exceeds H, the turns' budget is lowered by the excess and the turns fitted again; after a few tries, or when the
 * turns after the summary show nothing, the plain fit is returned unchanged. Pure.
 */
final class SummaryFit {

    /** Between the block and the first user message, as the renderer merges messages of one role. */
    static final String SEPARATOR = "\n\n";

    /** Fits of the turns per call before the plain fit is kept. */
    static final int ATTEMPTS = 4;

    /**
     * @param fitted the fitted history to answer with
     * @param shown  the summary as shown, or {@code null} when none is
     */
    record Result(FittedHistory fitted, HistorySummary shown) {}

    private SummaryFit() {}

    /**
     * @param fitter            the fitter (its counter measures everything)
     * @param counter           that counter
     * @param turns             the loaded turns, oldest first
     * @param olderCandidateIds candidates older than {@code turns}, oldest first (ceiling-dropped)
     * @param plain             the plain fit of {@code turns} within H, with {@code olderCandidateIds} dropped
     * @param summary           the stored summary, or {@code null}
     * @param budget            the context budget
     * @param historyTokens     H, tokens
     * @param options           the compaction options of the call
     * @return the fit with the summary, or the plain fit without one
     */
    static Result fit(
            ContextWindowFitter fitter,
            TokenCounter counter,
            List<TurnRecord> turns,
            List<String> olderCandidateIds,
            FittedHistory plain,
            HistorySummary summary,
            ContextBudget budget,
            int historyTokens,
            CompactionOptions options) {
        if (summary == null
                || plain.droppedTurnIds().isEmpty()
                || plain.messages().isEmpty()) {
            return new Result(plain, null);
        }
        // The summary stands in for the turns this call drops, never for more: one written after a tighter call may
        // reach past them, and the turns that fit stay verbatim (the summary then repeats some of them).
        long replaced = Math.min(summary.lastSequence(), newestDropped(turns, plain));
        int limit = Math.max(0, historyTokens);
        double factor = Math.max(1.0, options.calibration());
        int share = share(budget, limit);
        int overhead = counter.count(block(summary, "")) + counter.count(SEPARATOR);
        String text = SummaryText.newest(summary.text(), share - overhead, counter);
        if (text.isEmpty()) {
            return new Result(plain, null);
        }
        String block = block(summary, text);
        List<TurnRecord> after = new ArrayList<>(turns.size());
        List<String> covered = new ArrayList<>();
        for (TurnRecord turn : turns) {
            if (turn.sequence() != null && turn.sequence() <= replaced) {
                if (candidate(turn, options)) {
                    covered.add(turn.turnId());
                }
            } else {
                after.add(turn);
            }
        }
        long turnsBudget = limit - (long) Math.ceil(factor * (counter.count(block) + counter.count(SEPARATOR)));
        for (int attempt = 0; attempt < ATTEMPTS && turnsBudget > 0; attempt++) {
            FittedHistory fitted = fitter.fitWithin(after, budget, (int) turnsBudget, options);
            if (fitted.messages().isEmpty()) {
                break;
            }
            List<HistoryMessage> messages = opened(fitted.messages(), block);
            long total = 0;
            for (HistoryMessage message : messages) {
                total += counter.count(message.content());
            }
            long needed = (long) Math.ceil(factor * total);
            if (needed <= limit) {
                List<String> dropped = new ArrayList<>(olderCandidateIds);
                dropped.addAll(covered);
                dropped.addAll(fitted.droppedTurnIds());
                FittedHistory withSummary = new FittedHistory(
                        messages,
                        fitted.views(),
                        fitted.omissions(),
                        fitted.outcome(),
                        limit,
                        (int) total,
                        fitted.boundaryTurnId(),
                        plain.stage2Needed() || fitted.stage2Needed(),
                        dropped);
                return new Result(withSummary, summary.shown(text, counter.count(text)));
            }
            turnsBudget -= needed - limit;
        }
        return new Result(plain, null);
    }

    /**
     * @return the sequence of the newest turn the plain fit dropped: of a loaded turn, or just before the first
     *         loaded turn when only older candidates were dropped; {@link Long#MIN_VALUE} when unknown
     */
    private static long newestDropped(List<TurnRecord> turns, FittedHistory plain) {
        java.util.Set<String> dropped = new java.util.HashSet<>(plain.droppedTurnIds());
        long newest = Long.MIN_VALUE;
        for (TurnRecord turn : turns) {
            if (turn.sequence() == null) {
                continue;
            }
            if (dropped.contains(turn.turnId())) {
                newest = Math.max(newest, turn.sequence());
            } else if (newest == Long.MIN_VALUE) {
                newest = turn.sequence() - 1; // the older candidates all precede the first loaded turn
            }
        }
        return newest;
    }

    /**
     * @param budget the context budget
     * @param limit  H, tokens
     * @return the most tokens the summary's block may take: {@code H − floor(H × low / high)}
     */
    static int share(ContextBudget budget, int limit) {
        return limit - (int) Math.floor(limit * budget.lowWatermark() / budget.highWatermark());
    }

    private static String block(HistorySummary summary, String text) {
        return SummaryText.block(summary.turnCount(), summary.firstTurnId(), summary.lastTurnId(), text);
    }

    /** The messages with the block opening the first (user) message. */
    private static List<HistoryMessage> opened(List<HistoryMessage> messages, String block) {
        List<HistoryMessage> out = new ArrayList<>(messages);
        HistoryMessage first = out.get(0);
        out.set(
                0,
                new HistoryMessage(
                        first.role(), block + SEPARATOR + first.content(), first.chatbotId(), first.turnId()));
        return out;
    }

    /** A compaction candidate of the call (spec §8.5 step 2): it renders something and is not an excluded agent's. */
    private static boolean candidate(TurnRecord turn, CompactionOptions options) {
        boolean foreign = options.currentChatbotId() != null
                && turn.chatbotId() != null
                && !turn.chatbotId().equals(options.currentChatbotId());
        return HistoryRenderer.rendersSomething(turn) && (options.includeOtherAgents() || !foreign);
    }
}
