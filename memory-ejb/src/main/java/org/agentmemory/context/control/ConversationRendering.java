package org.agentmemory.context.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.compaction.CompactionState;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.config.MemorySettings;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.omission.Omission;
import org.agentmemory.compaction.control.CompactionMetadata;
import org.agentmemory.compaction.control.CompactionOptions;
import org.agentmemory.compaction.control.Compactor;
import org.agentmemory.compaction.control.ContextWindowFitter;
import org.agentmemory.compaction.control.FittedHistory;
import org.agentmemory.compaction.control.HistoryRenderer;
import org.agentmemory.compaction.control.ModelWindows;
import org.agentmemory.compaction.control.PendingOmission;
import org.agentmemory.compaction.control.PrunePolicies;
import org.agentmemory.conversation.control.HistoryWindow;
import org.agentmemory.platform.tokens.TokenCounter;

/**
 * Renders a conversation for a model's window (spec §5.4 steps 1–5, §8, §9): resolves the call's budget, compacts
 * the loaded tail of the history into it, puts the conversation's Stage 2 summary in place of the turns it covers
 * when turns were left out ({@link SummaryFit}, issue 35 item 4), has the omissions the compaction produced stored
 * before the answer is built, and falls back to the plain rendering when compaction is off or those omissions could
 * not be stored. Pure: the caller supplies the stored conversation, its tail, its summary and the omission store.
 *
 * <p>One per deployment (the context component's configuration owns it): it also remembers which unknown model names
 * were reported (spec §5.3: one INFO line each, bounded against odd clients).
 */
public final class ConversationRendering {

    private static final Logger LOG = Logger.getLogger(ConversationRendering.class.getName());

    /** Most model names reported as unknown; more are no longer reported. */
    static final int MAX_REPORTED_FALLBACKS = 1024;

    /**
     * A stored conversation as the renderer needs it.
     *
     * @param id        its id
     * @param chatbotId its agent, or {@code null}
     * @param metadata  its metadata (the persisted compaction state is read from it)
     */
    public record Stored(long id, String chatbotId, Map<String, Object> metadata) {}

    /**
     * The loaded part of a history.
     *
     * @param turns             the turns after the window's start, in sequence order
     * @param olderCandidateIds the older candidates, oldest first: ceiling-dropped
     */
    public record Tail(List<TurnRecord> turns, List<String> olderCandidateIds) {}

    /** Loads the tail of a stored conversation. */
    @FunctionalInterface
    public interface TailLoader {
        /**
         * @param maxTurns           the budget's ceiling
         * @param currentChatbotId   the agent asking, or {@code null}
         * @param includeOtherAgents whether other agents' turns are candidates
         * @return the tail ({@link HistoryWindow})
         */
        Tail load(int maxTurns, String currentChatbotId, boolean includeOtherAgents);
    }

    /** Loads a conversation's Stage 2 summary, only when a rendering left turns out. */
    @FunctionalInterface
    public interface SummaryLoader {
        /** @return the stored summary, or {@code null} when none is stored */
        HistorySummary load();
    }

    /** Stores the omissions a compaction produced, before the answer leaves. */
    @FunctionalInterface
    public interface OmissionSink {
        /**
         * @param omissions the omissions, each with its turn id
         * @return {@code false} when they could not be stored (the answer is then the plain rendering)
         */
        boolean store(List<Omission> omissions);
    }

    private final Set<String> reportedFallbacks = ConcurrentHashMap.newKeySet();
    private final ContextWindowFitter fitter;
    private final ModelWindows windows;
    private final TokenCounter counter;
    private final int oversizeToolTokens;
    private final boolean compactionEnabled;
    private final boolean stage2Enabled;

    /**
     * @param windows            the model window table
     * @param policies           the prune policies of tool outputs
     * @param counter            the memory's token counter
     * @param oversizeToolTokens the render-time oversize threshold (the write-time offload threshold)
     * @param compactionEnabled  whether to compact ({@code memory.compaction.enabled})
     * @param stage2Enabled      whether to show Stage 2 summaries ({@code memory.stage2.enabled})
     */
    public ConversationRendering(
            ModelWindows windows,
            PrunePolicies policies,
            TokenCounter counter,
            int oversizeToolTokens,
            boolean compactionEnabled,
            boolean stage2Enabled) {
        this.fitter = new ContextWindowFitter(new Compactor(counter, policies));
        this.windows = windows;
        this.counter = counter;
        this.oversizeToolTokens = oversizeToolTokens;
        this.compactionEnabled = compactionEnabled;
        this.stage2Enabled = stage2Enabled;
    }

    /**
     * The renderer of the configuration in effect.
     *
     * @param modelWindows       {@code memory.compaction.model-windows}: overrides of the built-in window table
     * @param toolPolicies       {@code memory.compaction.tool-policies}: tool name → prune policy name
     * @param counter            the memory's token counter
     * @param oversizeToolTokens the write-time offload threshold, tokens
     * @param compactionEnabled  {@code memory.compaction.enabled}
     * @param stage2Enabled      {@code memory.stage2.enabled}
     * @return the renderer
     * @throws IllegalStateException naming the key when a tool policy is unknown (the deployment fails)
     */
    public static ConversationRendering configured(
            Map<String, Integer> modelWindows,
            Map<String, String> toolPolicies,
            TokenCounter counter,
            int oversizeToolTokens,
            boolean compactionEnabled,
            boolean stage2Enabled) {
        PrunePolicies policies;
        try {
            policies = PrunePolicies.configured(toolPolicies);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(MemorySettings.COMPACTION_TOOL_POLICIES + ": " + e.getMessage(), e);
        }
        return new ConversationRendering(
                new ModelWindows(modelWindows),
                policies,
                counter,
                oversizeToolTokens,
                compactionEnabled,
                stage2Enabled);
    }

    /**
     * @param request the call's request, {@code null} for every default
     * @return its budget
     * @throws InvalidInputException when a field breaks a rule ({@link ContextBudgets})
     */
    public ResolvedBudget resolve(ContextRequest request) throws InvalidInputException {
        ResolvedBudget budget = ContextBudgets.resolve(request, windows, counter, oversizeToolTokens);
        if (budget.windowFallback()) {
            String model = request == null || request.model() == null ? "" : request.model();
            if (reportedFallbacks.size() < MAX_REPORTED_FALLBACKS && reportedFallbacks.add(model)) {
                LOG.info(() -> (model.isEmpty()
                                ? "A context call named no model"
                                : "Model '" + model + "' has no known" + " context window")
                        + "; using " + budget.window() + " tokens. Name the model's window with"
                        + " memory.compaction.model-windows or send an explicit window.");
            }
        }
        return budget;
    }

    /** The answer for a key without a conversation: an empty history, with a commit that only calibrates. */
    public ConversationContext empty(ResolvedBudget budget, ContextRequest request) {
        FittedHistory fitted =
                fitter.fitWithin(List.of(), budget.budget(), budget.historyBudget(), options(null, null, request));
        return ContextResults.fitted(null, fitted, null, budget, CompactionState.DEFAULT_CALIBRATION, counter.name());
    }

    /**
     * @param c         the stored conversation
     * @param tail      loads the part of its history the budget can show
     * @param summaries loads its Stage 2 summary (called only when turns were left out and Stage 2 is on)
     * @param sink      stores the omissions a compaction produced
     * @param budget    the resolved budget
     * @param request   the call's request, or {@code null}
     * @return the compacted history, or the plain one (with the reason in its note)
     */
    public ConversationContext render(
            Stored c,
            TailLoader tail,
            SummaryLoader summaries,
            OmissionSink sink,
            ResolvedBudget budget,
            ContextRequest request) {
        CompactionState state = CompactionMetadata.read(c.metadata());
        double calibration = CompactionMetadata.calibration(state);
        String boundary = state == null ? null : state.boundaryTurnId();
        CompactionOptions options = options(c, state, request);
        Tail loaded = tail.load(budget.budget().maxTurns(), options.currentChatbotId(), options.includeOtherAgents());
        if (!compactionEnabled) {
            return plain(
                    c,
                    loaded.turns(),
                    budget,
                    options,
                    boundary,
                    calibration,
                    "Compaction is disabled"
                            + " (memory.compaction.enabled=false): the newest turns are rendered as stored.");
        }
        FittedHistory plain = HistoryWindow.withOlderDropped(
                fitter.fitWithin(loaded.turns(), budget.budget(), budget.historyBudget(), options),
                loaded.olderCandidateIds());
        SummaryFit.Result withSummary = stage2Enabled && !plain.droppedTurnIds().isEmpty()
                ? SummaryFit.fit(
                        fitter,
                        counter,
                        loaded.turns(),
                        loaded.olderCandidateIds(),
                        plain,
                        summaries.load(),
                        budget.budget(),
                        budget.historyBudget(),
                        options)
                : new SummaryFit.Result(plain, null);
        FittedHistory fitted = withSummary.fitted();
        if (!fitted.omissions().isEmpty() && !sink.store(omissions(fitted.omissions()))) {
            return plain(
                    c,
                    loaded.turns(),
                    budget,
                    options,
                    boundary,
                    calibration,
                    "The omitted tool outputs could"
                            + " not be stored, so the newest turns are rendered as stored, without compaction; try again.");
        }
        return ContextResults.fitted(c.id(), fitted, withSummary.shown(), budget, calibration, counter.name());
    }

    private static List<Omission> omissions(List<PendingOmission> pending) {
        List<Omission> omissions = new ArrayList<>(pending.size());
        for (PendingOmission p : pending) {
            omissions.add(new Omission(p.contentId(), p.content(), p.turnId(), p.toolName(), p.field()));
        }
        return omissions;
    }

    private static CompactionOptions options(Stored c, CompactionState state, ContextRequest request) {
        String current = request != null && request.currentChatbotId() != null
                ? request.currentChatbotId()
                : c == null ? null : c.chatbotId();
        boolean includeOthers = request == null || request.includeOtherAgents() == null || request.includeOtherAgents();
        return new CompactionOptions(
                state == null ? null : state.boundaryTurnId(),
                CompactionMetadata.calibration(state),
                current,
                includeOthers,
                Map.of());
    }

    private ConversationContext plain(
            Stored c,
            List<TurnRecord> turns,
            ResolvedBudget budget,
            CompactionOptions options,
            String boundary,
            double calibration,
            String reason) {
        List<HistoryMessage> messages = HistoryRenderer.renderTurns(
                turns,
                budget.budget().maxTurns(),
                options.currentChatbotId(),
                options.includeOtherAgents(),
                budget.budget().toolActivityLimit());
        long tokens = 0;
        for (HistoryMessage message : messages) {
            tokens += counter.count(message.content());
        }
        return ContextResults.uncompacted(
                c.id(),
                messages,
                (int) Math.min(Integer.MAX_VALUE, tokens),
                budget,
                boundary,
                calibration,
                counter.name(),
                reason);
    }
}
