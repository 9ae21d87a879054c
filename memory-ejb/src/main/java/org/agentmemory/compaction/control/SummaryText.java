package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.List;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.tokens.TokenCounter;

/**
 * The text of a Stage 2 summary as lines (issue 35 item 4): bounding a stored summary to its token limit, keeping the
 * newest lines that fit a context's share, and the marked block a context shows it in. A summary is a list of lines,
 * oldest first; a line that carries {@value #DECISION} is a decision line, left out only after every other line.
 * Pure.
 */
public final class SummaryText {

    /** The start of each line the extractive summarizer writes. */
    public static final String LINE_PREFIX = "- ";

    /** Marks the decisions of a line. */
    public static final String DECISION = "Decision:";

    /** The block's tag: {@code <earlier-turns-summary …>} … {@code </earlier-turns-summary>}. */
    public static final String TAG = "earlier-turns-summary";

    private SummaryText() {}

    /**
     * @param text a summary, or {@code null}
     * @return its non-blank lines, stripped, in order; empty for {@code null} or blank
     */
    public static List<String> lines(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String line : text.split("\\R")) {
            if (!line.isBlank()) {
                out.add(line.strip());
            }
        }
        return out;
    }

    /**
     * Bounds a summary to {@code maxTokens}: while the lines joined with LF count more, the oldest line that is not a
     * decision line is left out, then the oldest decision line; a single line still too long is cut at the end with
     * {@code …}.
     *
     * @param lines     the lines, oldest first
     * @param maxTokens most tokens (≥ 1)
     * @param counter   the token counter
     * @return the lines kept, joined with LF
     */
    public static String bound(List<String> lines, int maxTokens, TokenCounter counter) {
        String joined = String.join("\n", lines);
        if (counter.count(joined) <= maxTokens) {
            return joined;
        }
        int[] order = evictionOrder(lines);
        boolean[] removed = new boolean[lines.size()];
        long estimate = 0;
        int[] sizes = new int[lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            sizes[i] = counter.count(lines.get(i)) + 1;
            estimate += sizes[i];
        }
        int next = 0;
        // Per-line counts first (cheap), then exact counts of the joined text until it fits.
        while (estimate > maxTokens && next < order.length - 1) {
            removed[order[next]] = true;
            estimate -= sizes[order[next]];
            next++;
        }
        List<String> kept = kept(lines, removed);
        while (kept.size() > 1 && counter.count(String.join("\n", kept)) > maxTokens) {
            removed[order[next++]] = true;
            kept = kept(lines, removed);
        }
        String text = String.join("\n", kept);
        return counter.count(text) <= maxTokens ? text : cutToFit(text, maxTokens, counter);
    }

    /**
     * The newest lines of a summary that fit a token limit, as a context shows a summary larger than its share.
     *
     * @param text      a summary
     * @param maxTokens the share, tokens
     * @param counter   the token counter
     * @return the newest whole lines whose LF-joined text counts at most {@code maxTokens}; {@code ""} when not even
     *         the newest line fits
     */
    public static String newest(String text, int maxTokens, TokenCounter counter) {
        List<String> lines = lines(text);
        int lo = 0;
        int hi = lines.size();
        // The fewest lines left out such that the rest fits (the count only grows with more lines).
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (counter.count(String.join("\n", lines.subList(mid, lines.size()))) <= maxTokens) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return String.join("\n", lines.subList(lo, lines.size()));
    }

    /**
     * The block a context shows a summary in, opening the first user message:
     *
     * <pre>
     * &lt;earlier-turns-summary turns="12" first="t-1" last="t-12"&gt;
     * Summary of 12 earlier turns, not shown verbatim (oldest first):
     * - User: … Assistant: …
     * &lt;/earlier-turns-summary&gt;
     * </pre>
     *
     * Attribute values are XML-escaped as omission notices are.
     *
     * @param turnCount   turns covered
     * @param firstTurnId the oldest covered turn's id
     * @param lastTurnId  the newest covered turn's id
     * @param text        the summary text to show
     * @return the block
     */
    public static String block(int turnCount, String firstTurnId, String lastTurnId, String text) {
        return "<" + TAG + " turns=\"" + turnCount + "\" first=\"" + PrunePolicies.escapeAttribute(firstTurnId)
                + "\" last=\"" + PrunePolicies.escapeAttribute(lastTurnId) + "\">\nSummary of "
                + CodePoints.groupThousands(turnCount) + " earlier turn" + (turnCount == 1 ? "" : "s")
                + ", not shown verbatim (oldest first):\n" + text + "\n</" + TAG + ">";
    }

    /** Indices in the order lines are left out: plain lines oldest first, then decision lines oldest first. */
    private static int[] evictionOrder(List<String> lines) {
        int[] order = new int[lines.size()];
        int n = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).contains(DECISION)) {
                order[n++] = i;
            }
        }
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(DECISION)) {
                order[n++] = i;
            }
        }
        return order;
    }

    private static List<String> kept(List<String> lines, boolean[] removed) {
        List<String> kept = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            if (!removed[i]) {
                kept.add(lines.get(i));
            }
        }
        return kept;
    }

    /** The longest prefix (code points) of a one-line text that fits with {@code …} appended. */
    private static String cutToFit(String text, int maxTokens, TokenCounter counter) {
        int lo = 0;
        int hi = CodePoints.length(text);
        while (lo < hi) {
            int mid = lo + (hi - lo + 1) / 2;
            if (counter.count(CodePoints.head(text, mid) + "\u2026") <= maxTokens) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo == 0 ? "" : CodePoints.head(text, lo) + "\u2026";
    }
}
