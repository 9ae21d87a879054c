package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.compaction.TurnView;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.tokens.TokenCounter;

/**
 * Compacts and renders a history so that it NEVER exceeds a token budget (a requirement beyond the spec:
 * the spec's walk keeps the newest turns whatever their size).
 *
 * <p><b>Budget.</b> {@link #historyBudget}: {@code H = max(0, floor(highWatermark × available) −
 * systemPromptTokens − userPromptTokens)}. It is conservative: {@code available} already sets
 * {@code reserveFixed} aside for the system prompt and tool schemas, and the prompts are subtracted again,
 * so history + prompts fit the watermark even when the fixed reserve is too small. <b>Guarantee:</b>
 * {@code ceil(max(1, calibration) × Σ counter.count(message.content)) ≤ H}, so also
 * {@code Σ counter.count(message.content) ≤ H}, counted with the compactor's counter over exactly the
 * returned contents. No call throws for any {@code H ≥ 0} (a negative {@code H} counts as 0).
 *
 * <p><b>Steps</b>, each taken only when the previous result does not fit:
 * <ol>
 *   <li>the spec §8.5 walk with its watermark lowered to {@code min(watermark, H)} ({@code FITTED});
 *   <li>the same walk with {@code minVerbatimTurns = 1}, then removing its oldest views one at a time
 *       ({@code TRIMMED});
 *   <li>the newest turn alone, REDUCED: every tool output as an omission notice (policy lines, spec §8.4);
 *       if that does not fit, its user and assistant texts cut in the middle to the largest common length
 *       that fits, with {@link #truncationMarker(int)} where text was removed; if even the shortest texts
 *       do not fit with all lines, the largest prefix of lines that fits is kept and the rest replaced by
 *       {@code … +N more}, or the block is left out ({@code REDUCED});
 *   <li>nothing fits: zero messages ({@code BUDGET_TOO_SMALL}).
 * </ol>
 * A turn's tool outputs are therefore all shown as the walk rendered them, or all as notices: never a
 * subset chosen to fit this budget. Every candidate is measured exactly after rendering before it is
 * accepted, so BPE effects of merging and labels cannot break the guarantee.
 */
public final class ContextWindowFitter {

    private final Compactor compactor;

    /** @param compactor the compactor (its counter measures everything); never {@code null} */
    public ContextWindowFitter(Compactor compactor) {
        this.compactor = Objects.requireNonNull(compactor, "compactor");
    }

    /**
     * The history budget: {@code max(0, floor(highWatermark × available) − systemPromptTokens −
     * userPromptTokens)}, tokens.
     *
     * @param budget             the context budget; never {@code null}
     * @param systemPromptTokens tokens of the system prompt (≥ 0)
     * @param userPromptTokens   tokens of the new user prompt (≥ 0)
     * @return the budget, ≥ 0
     * @throws IllegalArgumentException when a prompt size is negative
     */
    public static int historyBudget(ContextBudget budget, int systemPromptTokens, int userPromptTokens) {
        if (systemPromptTokens < 0 || userPromptTokens < 0) {
            throw new IllegalArgumentException("prompt sizes must be >= 0 tokens but were systemPromptTokens="
                    + systemPromptTokens + ", userPromptTokens=" + userPromptTokens);
        }
        return (int) Math.max(0L, (long) budget.watermarkTokens() - systemPromptTokens - userPromptTokens);
    }

    /**
     * The marker that replaces the middle of a reduced text: LF, {@code …[truncated N chars]…}, LF, where N
     * is the number of code points removed with comma thousands separators (e.g.
     * {@code "\n…[truncated 59,000 chars]…\n"}).
     *
     * @param removed code points removed (≥ 0)
     * @return the marker
     */
    public static String truncationMarker(int removed) {
        return "\n\u2026[truncated " + CodePoints.groupThousands(removed) + " chars]\u2026\n";
    }

    /**
     * Cuts a text in the middle to keep {@code keep} code points: the first {@code ceil(keep/2)}, the
     * marker, the last {@code floor(keep/2)}. The text is returned unchanged when it has at most
     * {@code keep} code points, or when the cut (with its marker) would not be shorter.
     *
     * @param text any text, {@code null} counts as {@code ""}
     * @param keep code points to keep (≥ 0)
     * @return the text or its cut form
     */
    public static String truncateMiddle(String text, int keep) {
        String value = text == null ? "" : text;
        int length = CodePoints.length(value);
        if (length <= keep) {
            return value;
        }
        String marker = truncationMarker(length - keep);
        if (keep + CodePoints.length(marker) >= length) {
            return value;
        }
        int tail = keep / 2;
        return CodePoints.head(value, keep - tail) + marker + CodePoints.tail(value, tail);
    }

    /**
     * Fits a history to the budget left by the prompts: {@link #fitWithin} with
     * {@link #historyBudget(ContextBudget, int, int)}.
     *
     * @throws IllegalArgumentException when a prompt size is negative
     */
    public FittedHistory fit(
            List<TurnRecord> turns,
            ContextBudget budget,
            int systemPromptTokens,
            int userPromptTokens,
            CompactionOptions options) {
        return fitWithin(turns, budget, historyBudget(budget, systemPromptTokens, userPromptTokens), options);
    }

    /**
     * Fits a history to an explicit history budget.
     *
     * @param turns         the stored turns, oldest → newest; never {@code null}; not mutated
     * @param budget        the context budget (ceiling, tiers, activity limits); never {@code null}
     * @param historyTokens the history budget H, tokens; a negative value counts as 0
     * @param options       boundary, calibration, current agent, per-call policies; never {@code null}
     * @return messages whose measured tokens never exceed H, with the outcome
     */
    public FittedHistory fitWithin(
            List<TurnRecord> turns, ContextBudget budget, int historyTokens, CompactionOptions options) {
        Fit fit = new Fit(turns, budget, Math.max(0, historyTokens), options);
        return fit.run();
    }

    /** One fitting: the inputs and a memo of message token counts. */
    private final class Fit {
        private final List<TurnRecord> turns;
        private final ContextBudget budget;
        private final int limit;
        private final CompactionOptions options;
        private final double factor;
        private final TokenCounter counter = compactor.counter();
        private final Map<String, Integer> counts = new HashMap<>();

        Fit(List<TurnRecord> turns, ContextBudget budget, int limit, CompactionOptions options) {
            this.turns = turns;
            this.budget = budget;
            this.limit = limit;
            this.options = options;
            this.factor = Math.max(1.0, options.calibration());
        }

        FittedHistory run() {
            long watermark = Math.min(budget.watermarkTokens(), limit);
            Compactor.Walk walk = compactor.walk(turns, budget, watermark, budget.minVerbatimTurns(), options);
            if (walk.views().isEmpty()) {
                return result(FittedHistory.Outcome.NOTHING_TO_RENDER, walk, List.of(), List.of(), List.of());
            }
            List<HistoryMessage> messages = render(walk.views());
            if (messages.isEmpty()) {
                return result(FittedHistory.Outcome.NOTHING_TO_RENDER, walk, walk.views(), messages, List.of());
            }
            if (fits(messages)) {
                return result(FittedHistory.Outcome.FITTED, walk, walk.views(), messages, List.of());
            }
            if (budget.minVerbatimTurns() > 1) {
                walk = compactor.walk(turns, budget, watermark, 1, options);
            }
            List<Compactor.Walked> views = walk.views();
            for (int start = 0; start < views.size(); start++) {
                List<Compactor.Walked> kept = views.subList(start, views.size());
                messages = render(kept);
                if (!messages.isEmpty() && fits(messages)) {
                    return result(FittedHistory.Outcome.TRIMMED, walk, kept, messages, views.subList(0, start));
                }
            }
            return reduce(walk);
        }

        /** Step 3: the newest turn alone, tool outputs as notices, then texts cut, then lines cut. */
        private FittedHistory reduce(Compactor.Walk walk) {
            List<Compactor.Walked> views = walk.views();
            List<Compactor.Walked> removed = views.subList(0, views.size() - 1);
            TurnRecord turn = views.get(views.size() - 1).turn();
            List<PrunedLine> lines = ToolActivitySuffix.prunedLines(
                    turn, budget.toolActivityLimit(), compactor.policies(), options.policies());
            int longest = Math.max(CodePoints.length(turn.userMessage()), CodePoints.length(turn.assistantResponse()));

            Compactor.Walked candidate = reduced(turn, lines, longest, lines.size());
            if (fitsAlone(candidate)) {
                return reducedResult(walk, candidate, removed);
            }
            int keptLines = lines.size();
            if (!fitsAlone(reduced(turn, lines, 0, keptLines))) {
                if (!fitsAlone(reduced(turn, lines, 0, 0))) {
                    return result(FittedHistory.Outcome.BUDGET_TOO_SMALL, walk, List.of(), List.of(), views);
                }
                int lo = 0;
                int hi = lines.size() - 1;
                while (lo < hi) {
                    int mid = lo + (hi - lo + 1) / 2;
                    if (fitsAlone(reduced(turn, lines, 0, mid))) {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
                keptLines = lo;
            }
            int lo = 0;
            int hi = longest;
            while (lo < hi) {
                int mid = lo + (hi - lo + 1) / 2;
                if (fitsAlone(reduced(turn, lines, mid, keptLines))) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            return reducedResult(walk, reduced(turn, lines, lo, keptLines), removed);
        }

        /** The newest turn as a PRUNED view with texts cut to {@code keep} code points and the first lines. */
        private Compactor.Walked reduced(TurnRecord turn, List<PrunedLine> lines, int keep, int keptLines) {
            ToolActivitySuffix suffix = keptLines == 0
                    ? ToolActivitySuffix.NONE
                    : ToolActivitySuffix.fromPrunedLines(
                            turn.turnId(),
                            lines.subList(0, keptLines),
                            keptLines < lines.size() ? ToolActivitySuffix.more(lines.size() - keptLines) : null);
            String user = truncateMiddle(turn.userMessage(), keep);
            String assistant = truncateMiddle(turn.assistantResponse(), keep);
            int size = (int) Math.min(Integer.MAX_VALUE, (long) Math.ceil(options.calibration()
                    * ((long) counter.count(user) + counter.count(assistant) + counter.count(suffix.text()))));
            TurnView view = new TurnView(
                    turn.turnId(), turn.chatbotId(), user, assistant, suffix.text(), TurnState.PRUNED, size);
            return new Compactor.Walked(turn, view, suffix.omissions());
        }

        private boolean fitsAlone(Compactor.Walked candidate) {
            List<HistoryMessage> messages = render(List.of(candidate));
            return !messages.isEmpty() && fits(messages);
        }

        private FittedHistory reducedResult(
                Compactor.Walk walk, Compactor.Walked candidate, List<Compactor.Walked> removed) {
            return result(FittedHistory.Outcome.REDUCED, walk, List.of(candidate), render(List.of(candidate)), removed);
        }

        private List<HistoryMessage> render(List<Compactor.Walked> walked) {
            List<TurnView> views = new ArrayList<>(walked.size());
            for (Compactor.Walked w : walked) {
                views.add(w.view());
            }
            return HistoryRenderer.renderViews(views, options.currentChatbotId(), options.includeOtherAgents());
        }

        private boolean fits(List<HistoryMessage> messages) {
            return Math.ceil(factor * tokens(messages)) <= limit;
        }

        private long tokens(List<HistoryMessage> messages) {
            long total = 0;
            for (HistoryMessage message : messages) {
                total += counts.computeIfAbsent(message.content(), counter::count);
            }
            return total;
        }

        private FittedHistory result(
                FittedHistory.Outcome outcome,
                Compactor.Walk walk,
                List<Compactor.Walked> shown,
                List<HistoryMessage> messages,
                List<Compactor.Walked> removed) {
            List<TurnView> views = new ArrayList<>(shown.size());
            String boundary = null;
            for (Compactor.Walked w : shown) {
                views.add(w.view());
                if (w.view().state() == TurnState.PRUNED) {
                    boundary = w.view().turnId();
                }
            }
            if (boundary == null) {
                boundary = walk.boundaryTurnId();
            }
            List<String> dropped = new ArrayList<>(walk.ceilingDropped());
            dropped.addAll(walk.walkDropped());
            for (Compactor.Walked w : removed) {
                dropped.add(w.turn().turnId());
            }
            boolean stage2 = walk.overflow()
                    || walk.cum() > budget.available()
                    || !removed.isEmpty()
                    || outcome == FittedHistory.Outcome.REDUCED
                    || outcome == FittedHistory.Outcome.BUDGET_TOO_SMALL;
            return new FittedHistory(
                    messages,
                    views,
                    Compactor.uniqueOmissions(shown),
                    outcome,
                    limit,
                    (int) Math.min(Integer.MAX_VALUE, tokens(messages)),
                    boundary,
                    stage2,
                    dropped);
        }
    }
}
