package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.compaction.TurnView;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.platform.tokens.TokenCounter;

/**
 * Stage 1 read-time compaction (spec §8.5): a pure, deterministic walk from the newest turn to the oldest
 * that shows each turn RAW (text + full tool activity), PRUNED (text + one line per tool, outputs replaced
 * by omission notices) or drops it, under a {@link ContextBudget}. It performs no I/O and mutates nothing.
 *
 * <p>The walk, per spec: {@code watermark = floor(highWatermark × available)}; candidates are the turns
 * with a non-blank assistant response or with tool invocations (a tool-only turn, which the reference skips
 * and so loses its tool results), minus foreign turns when other agents are excluded; the oldest
 * candidates beyond {@code maxTurns} are ceiling-dropped; then for each kept turn, newest first, with the
 * user and assistant tokens (stored count when its tokenizer matches, else counted) and the counted
 * suffix, sizes are {@code ceil(calibration × (user + assistant + suffix))}:
 * <ul>
 *   <li>RAW iff not forced, no PRUNED turn seen yet, no oversize output (offloaded, or more than
 *       {@code oversizeToolTokens}; never checked for the newest turn) and
 *       ({@code nRaw < minVerbatimTurns} or the RAW size fits both {@code verbatimTokens} and the watermark);
 *   <li>else PRUNED iff the PRUNED size fits the watermark or no turn is RAW yet (the newest turn is never
 *       dropped);
 *   <li>else this turn and all older ones are dropped.
 * </ul>
 *
 * <p><b>Boundary (fix of spec §13 #15).</b> The boundary means "this turn and everything older in stored
 * order was shown PRUNED or dropped". The reference looks it up only among the kept candidates, so forcing
 * silently stops when it is not there. Here a kept turn is forced iff its position in the stored turn list
 * (the {@code turns} argument, whose order is the conversation's) is at or before the boundary turn's
 * position in that same list. Consequences: a boundary that fell off the {@code maxTurns} ceiling forces
 * no kept turn (every kept turn is newer, and each was RAW when the boundary was set — the same result as
 * the reference, now by rule); a boundary turn that is no longer a candidate (a foreign turn excluded with
 * {@code includeOtherAgents = false}) still forces every older kept turn (the reference forced none); an id
 * absent from the stored list (the turn was erased) forces nothing, as its position is unknown.
 *
 * <p>The RAW suffix is computed only for turns that may still be RAW and the PRUNED suffix only for turns
 * that are not RAW: the reference computes both for every turn, which gives the same decisions at twice the
 * counting cost. Thread-safe when the counter is.
 */
public final class Compactor {

    private final TokenCounter counter;
    private final PrunePolicies policies;

    /**
     * @param counter  the memory's token counter; never {@code null}
     * @param policies the prune policy resolver (configured table); never {@code null}
     */
    public Compactor(TokenCounter counter, PrunePolicies policies) {
        this.counter = Objects.requireNonNull(counter, "counter");
        this.policies = Objects.requireNonNull(policies, "policies");
    }

    /** @return the counter every size is measured with */
    public TokenCounter counter() {
        return counter;
    }

    /** @return the prune policy resolver */
    public PrunePolicies policies() {
        return policies;
    }

    /**
     * Compacts a history (spec §8.5).
     *
     * @param turns   the stored turns, oldest → newest; never {@code null}; not mutated
     * @param budget  the budget; never {@code null}
     * @param options boundary, calibration, current agent, per-call policies; never {@code null}
     * @return the views, omissions, estimate, new boundary, Stage-2 flag and dropped ids
     */
    public CompactionResult compact(List<TurnRecord> turns, ContextBudget budget, CompactionOptions options) {
        Walk walk = walk(turns, budget, budget.watermarkTokens(), budget.minVerbatimTurns(), options);
        List<TurnView> views = new ArrayList<>(walk.views().size());
        for (Walked walked : walk.views()) {
            views.add(walked.view());
        }
        List<String> dropped = new ArrayList<>(walk.ceilingDropped());
        dropped.addAll(walk.walkDropped());
        return new CompactionResult(
                views,
                uniqueOmissions(walk.views()),
                walk.cum(),
                walk.boundaryTurnId(),
                walk.overflow() || walk.cum() > budget.available(),
                dropped);
    }

    /** A view with the turn it shows and the omissions of its own suffix. */
    record Walked(TurnRecord turn, TurnView view, List<PendingOmission> omissions) {}

    /**
     * @param views          kept views, oldest → newest
     * @param boundaryTurnId newest PRUNED view's id, else the input boundary
     */
    record Walk(
            List<Walked> views,
            List<String> ceilingDropped,
            List<String> walkDropped,
            long cum,
            boolean overflow,
            String boundaryTurnId) {}

    /**
     * The walk with an explicit watermark and RAW minimum, so that {@link ContextWindowFitter} can tighten
     * them; {@link #compact} passes the budget's own values.
     */
    Walk walk(
            List<TurnRecord> turns,
            ContextBudget budget,
            long watermark,
            int minVerbatimTurns,
            CompactionOptions options) {
        String current = options.currentChatbotId();
        List<TurnRecord> candidates = new ArrayList<>(turns.size());
        int[] storedIndex = new int[turns.size()];
        int boundaryIndex = -1;
        for (int i = 0; i < turns.size(); i++) {
            TurnRecord turn = turns.get(i);
            if (boundaryIndex < 0
                    && options.boundaryTurnId() != null
                    && options.boundaryTurnId().equals(turn.turnId())) {
                boundaryIndex = i;
            }
            if (HistoryRenderer.rendersSomething(turn) && (options.includeOtherAgents() || !isForeign(turn, current))) {
                storedIndex[candidates.size()] = i;
                candidates.add(turn);
            }
        }
        int firstKept = Math.max(0, candidates.size() - budget.maxTurns());
        List<String> ceilingDropped = ids(candidates.subList(0, firstKept));
        List<TurnRecord> kept = candidates.subList(firstKept, candidates.size());

        List<Walked> reversed = new ArrayList<>(kept.size());
        List<String> walkDropped = List.of();
        long cum = 0;
        int nRaw = 0;
        boolean prunedSeen = false;
        boolean overflow = false;
        ContextBudget.ActivityLimit limit = budget.toolActivityLimit();
        double calibration = options.calibration();
        for (int idx = kept.size() - 1; idx >= 0; idx--) {
            TurnRecord turn = kept.get(idx);
            boolean newest = idx == kept.size() - 1;
            long base = userAndAssistantTokens(turn);
            boolean forced = boundaryIndex >= 0 && storedIndex[firstKept + idx] <= boundaryIndex;

            if (!forced && !prunedSeen && (newest || !hasOversizeOutput(turn, budget.oversizeToolTokens()))) {
                ToolActivitySuffix raw =
                        ToolActivitySuffix.raw(turn, limit, Set.of(), policies, options.policies(), counter);
                int rawSize = size(calibration, base, raw.text());
                if (nRaw < minVerbatimTurns
                        || (cum + rawSize <= budget.verbatimTokens() && cum + rawSize <= watermark)) {
                    reversed.add(new Walked(turn, view(turn, raw.text(), TurnState.RAW, rawSize), raw.omissions()));
                    cum += rawSize;
                    nRaw++;
                    continue;
                }
            }
            ToolActivitySuffix pruned = ToolActivitySuffix.pruned(turn, limit, policies, options.policies());
            int prunedSize = size(calibration, base, pruned.text());
            if (cum + prunedSize <= watermark || nRaw == 0) {
                reversed.add(
                        new Walked(turn, view(turn, pruned.text(), TurnState.PRUNED, prunedSize), pruned.omissions()));
                cum += prunedSize;
                prunedSeen = true;
                continue;
            }
            overflow = true;
            walkDropped = ids(kept.subList(0, idx + 1));
            break;
        }
        Collections.reverse(reversed);
        String boundary = options.boundaryTurnId();
        for (Walked walked : reversed) {
            if (walked.view().state() == TurnState.PRUNED) {
                boundary = walked.view().turnId();
            }
        }
        return new Walk(Collections.unmodifiableList(reversed), ceilingDropped, walkDropped, cum, overflow, boundary);
    }

    /** De-duplicates omissions by content id across views, keeping the first seen in walk order (newest first). */
    static List<PendingOmission> uniqueOmissions(List<Walked> oldestFirst) {
        Map<String, PendingOmission> unique = new LinkedHashMap<>();
        for (int i = oldestFirst.size() - 1; i >= 0; i--) {
            for (PendingOmission omission : oldestFirst.get(i).omissions()) {
                unique.putIfAbsent(omission.contentId(), omission);
            }
        }
        return List.copyOf(unique.values());
    }

    /** Foreign = a current agent is set, the turn has an agent, and they differ (spec §8.5 step 2). */
    static boolean isForeign(TurnRecord turn, String currentChatbotId) {
        return currentChatbotId != null
                && turn.chatbotId() != null
                && !turn.chatbotId().equals(currentChatbotId);
    }

    /**
     * The user + assistant tokens of a turn: the stored count when its tokenizer is this counter's, else a
     * fresh count (not persisted). The tools count is never used: the rendered suffix is counted instead.
     */
    long userAndAssistantTokens(TurnRecord turn) {
        TokenCount stored = turn.tokenCount();
        if (stored != null && counter.name().equals(stored.tokenizer())) {
            return (long) stored.user() + stored.assistant();
        }
        return (long) counter.count(turn.userMessage()) + counter.count(turn.assistantResponse());
    }

    private boolean hasOversizeOutput(TurnRecord turn, int oversizeToolTokens) {
        for (ToolInvocationRecord invocation : turn.toolInvocations()) {
            if (invocation.omitted().containsKey(PendingOmission.OUTPUT)) {
                return true;
            }
        }
        for (ToolInvocationRecord invocation : turn.toolInvocations()) {
            String output = invocation.output();
            // A token covers at least one UTF-8 byte (byte-level BPE, the byte heuristic), and a UTF-16 unit is
            // at most 3 bytes: an output this short cannot exceed the threshold, so it is not counted.
            if (output != null
                    && 3L * output.length() > oversizeToolTokens
                    && counter.count(output) > oversizeToolTokens) {
                return true;
            }
        }
        return false;
    }

    private int size(double calibration, long base, String suffix) {
        long tokens = base + (suffix.isEmpty() ? 0 : counter.count(suffix));
        return (int) Math.min(Integer.MAX_VALUE, (long) Math.ceil(calibration * tokens));
    }

    private static TurnView view(TurnRecord turn, String suffix, TurnState state, int size) {
        return new TurnView(
                turn.turnId(), turn.chatbotId(), turn.userMessage(), turn.assistantResponse(), suffix, state, size);
    }

    private static List<String> ids(List<TurnRecord> turns) {
        List<String> ids = new ArrayList<>(turns.size());
        for (TurnRecord turn : turns) {
            ids.add(turn.turnId());
        }
        return Collections.unmodifiableList(ids);
    }
}
