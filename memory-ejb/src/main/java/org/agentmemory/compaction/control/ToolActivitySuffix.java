package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agentmemory.api.compaction.ContextBudget.ActivityLimit;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.text.CodePoints;
import org.agentmemory.platform.tokens.TokenCounter;

/**
 * The {@code <tool-activity>} block appended to a turn's assistant text in a view (spec §8.2 RAW, §8.3
 * PRUNED), with the omissions its notices refer to.
 *
 * @param text      {@code ""} for a turn without invocations, else
 *                  {@code "\n\n<tool-activity>\n" + lines + "\n</tool-activity>"} (+ the recovery hint in a
 *                  PRUNED view with at least one notice)
 * @param omissions the new omissions the notices refer to, in line order; never {@code null}
 */
public record ToolActivitySuffix(String text, List<PendingOmission> omissions) {

    /** The suffix of a turn without tool invocations. */
    public static final ToolActivitySuffix NONE = new ToolActivitySuffix("", List.of());

    public ToolActivitySuffix {
        omissions = List.copyOf(omissions);
    }

    /**
     * The RAW view suffix (spec §8.2): the first {@code maxInvocations} invocations, each either through its
     * prune policy (index in {@code oversize}, or output already offloaded) or in full ({@code out=} the
     * first {@code maxOutputChars} code points + {@code " …(+N chars)"}, then {@code error=} the full error);
     * {@code … +N more} for the rest; then, if the lines take more than {@code maxBlockTokens}, lines are
     * popped from the end until they fit and {@code … +{popped} more} is appended (not re-checked).
     *
     * @param turn     the turn; never {@code null}
     * @param limit    the block bounds
     * @param oversize invocation indices to render through their policy
     * @param policies the policy resolver
     * @param perCall  per-call policy overrides, or {@code null}
     * @param counter  counts the block for the cap
     * @return the suffix and the omissions of its policy-rendered lines
     */
    public static ToolActivitySuffix raw(
            TurnRecord turn,
            ActivityLimit limit,
            Set<Integer> oversize,
            PrunePolicies policies,
            Map<String, PrunePolicy> perCall,
            TokenCounter counter) {
        List<ToolInvocationRecord> invocations = turn.toolInvocations();
        if (invocations.isEmpty()) {
            return NONE;
        }
        int considered = Math.min(invocations.size(), limit.maxInvocations());
        List<String> lines = new ArrayList<>(considered + 2);
        List<PendingOmission> omissions = new ArrayList<>();
        for (int i = 0; i < considered; i++) {
            ToolInvocationRecord invocation = invocations.get(i);
            if (oversize.contains(i) || invocation.omitted().containsKey(PendingOmission.OUTPUT)) {
                PrunedLine pruned = PrunePolicies.pruneLine(
                        policies.resolve(invocation.toolName(), perCall), invocation, turn.turnId(), limit);
                lines.add(pruned.line());
                if (pruned.omission() != null) {
                    omissions.add(pruned.omission());
                }
            } else {
                lines.add(ToolActivityLines.line(invocation, invocation.input(), rawBody(invocation, limit), limit));
            }
        }
        if (invocations.size() > considered) {
            lines.add(more(invocations.size() - considered));
        }
        if (counter.count(String.join("\n", lines)) > limit.maxBlockTokens()) {
            int popped = 0;
            while (!lines.isEmpty() && counter.count(String.join("\n", lines)) > limit.maxBlockTokens()) {
                lines.remove(lines.size() - 1);
                popped++;
            }
            if (popped > 0) {
                lines.add(more(popped));
            }
        }
        return new ToolActivitySuffix(wrap(lines), omissions);
    }

    /**
     * The block of a turn rendered without compaction whose reply is blank (a tool-only turn): the first
     * {@code maxInvocations} invocations in full, as in a RAW view ({@code out=} cut to {@code maxOutputChars}
     * code points, the full error), {@code … +N more} for the rest; no token cap, since the plain path has no
     * budget to keep.
     *
     * @param turn  the turn; never {@code null}
     * @param limit the block bounds; never {@code null}
     * @return {@code ""} for a turn without invocations, else the wrapped block
     */
    public static String plain(TurnRecord turn, ActivityLimit limit) {
        List<ToolInvocationRecord> invocations = turn.toolInvocations();
        if (invocations.isEmpty()) {
            return "";
        }
        int considered = Math.min(invocations.size(), limit.maxInvocations());
        List<String> lines = new ArrayList<>(considered + 1);
        for (int i = 0; i < considered; i++) {
            ToolInvocationRecord invocation = invocations.get(i);
            lines.add(ToolActivityLines.line(invocation, invocation.input(), rawBody(invocation, limit), limit));
        }
        if (invocations.size() > considered) {
            lines.add(more(invocations.size() - considered));
        }
        return wrap(lines);
    }

    /**
     * The PRUNED view suffix (spec §8.3): one policy line for EVERY invocation (no invocation or token cap),
     * then, when any line carries a notice, the recovery hint line.
     *
     * @param turn     the turn; never {@code null}
     * @param limit    bounds of the {@code in=} field
     * @param policies the policy resolver
     * @param perCall  per-call policy overrides, or {@code null}
     * @return the suffix and its new omissions
     */
    public static ToolActivitySuffix pruned(
            TurnRecord turn, ActivityLimit limit, PrunePolicies policies, Map<String, PrunePolicy> perCall) {
        return fromPrunedLines(turn.turnId(), prunedLines(turn, limit, policies, perCall));
    }

    static List<PrunedLine> prunedLines(
            TurnRecord turn, ActivityLimit limit, PrunePolicies policies, Map<String, PrunePolicy> perCall) {
        List<PrunedLine> lines = new ArrayList<>(turn.toolInvocations().size());
        for (ToolInvocationRecord invocation : turn.toolInvocations()) {
            lines.add(PrunePolicies.pruneLine(
                    policies.resolve(invocation.toolName(), perCall), invocation, turn.turnId(), limit));
        }
        return lines;
    }

    /**
     * Assembles a PRUNED suffix from policy lines. The hint is added when a line carries a notice; the
     * reference tests the line text for {@code <tool-output-omitted}, which an input value or error text
     * could fake, so the flag set where a notice is emitted is used instead.
     *
     * @param trailer an extra last line (e.g. {@code … +3 more}), or {@code null}
     */
    static ToolActivitySuffix fromPrunedLines(String turnId, List<PrunedLine> pruned, String trailer) {
        if (pruned.isEmpty() && trailer == null) {
            return NONE;
        }
        List<String> lines = new ArrayList<>(pruned.size() + 1);
        List<PendingOmission> omissions = new ArrayList<>();
        boolean notice = false;
        for (PrunedLine line : pruned) {
            lines.add(line.line());
            notice |= line.notice();
            if (line.omission() != null) {
                omissions.add(line.omission());
            }
        }
        if (trailer != null) {
            lines.add(trailer);
        }
        String text = wrap(lines);
        if (notice) {
            text +=
                    "\nOmitted content can be recovered with read_omitted_content(content_id) or read_omitted_content(turn_id=\""
                            + turnId + "\").";
        }
        return new ToolActivitySuffix(text, omissions);
    }

    static ToolActivitySuffix fromPrunedLines(String turnId, List<PrunedLine> pruned) {
        return fromPrunedLines(turnId, pruned, null);
    }

    /** @return {@code "… +N more"} */
    static String more(int count) {
        return "\u2026 +" + count + " more";
    }

    private static String rawBody(ToolInvocationRecord invocation, ActivityLimit limit) {
        boolean output = Texts.present(invocation.output());
        boolean error = Texts.present(invocation.error());
        if (!output && !error) {
            return "";
        }
        StringBuilder body = new StringBuilder();
        if (output) {
            body.append("out=").append(CodePoints.truncateWithCount(invocation.output(), limit.maxOutputChars()));
        }
        if (error) {
            if (output) {
                body.append(' ');
            }
            body.append(ToolActivityLines.errorPart(invocation));
        }
        return body.toString();
    }

    private static String wrap(List<String> lines) {
        return "\n\n<tool-activity>\n" + String.join("\n", lines) + "\n</tool-activity>";
    }
}
