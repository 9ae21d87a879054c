package org.agentmemory.context.boundary;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.compaction.CompactionState;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.context.AssembledContext;
import org.agentmemory.api.context.ContextAssemblyRequest;
import org.agentmemory.api.context.ContextMemory;
import org.agentmemory.api.context.ContextMemoryOperations;
import org.agentmemory.api.context.ContextMemoryRemote;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.api.context.ContextSection;
import org.agentmemory.api.context.ContextSectionProvider;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.api.context.SectionQuery;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.omission.Omission;
import org.agentmemory.compaction.control.CompactionMetadata;
import org.agentmemory.compaction.control.CompactionOptions;
import org.agentmemory.compaction.control.Compactor;
import org.agentmemory.compaction.control.ContextWindowFitter;
import org.agentmemory.compaction.control.FittedHistory;
import org.agentmemory.compaction.control.HistoryRenderer;
import org.agentmemory.compaction.control.PendingOmission;
import org.agentmemory.config.Settings;
import org.agentmemory.context.control.AssemblyConfigs;
import org.agentmemory.context.control.ContextAssembler;
import org.agentmemory.context.control.ContextBudgets;
import org.agentmemory.context.control.ContextResults;
import org.agentmemory.context.control.ContextSections;
import org.agentmemory.context.control.ConversationLines;
import org.agentmemory.context.control.HistoryWindow;
import org.agentmemory.context.control.MemoryConfig;
import org.agentmemory.context.control.MemoryContext;
import org.agentmemory.context.control.OmissionRecovery;
import org.agentmemory.context.control.ResolvedBudget;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.control.InputRules;
import org.agentmemory.conversation.control.TurnMapper;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.omission.boundary.OmissionFlushBean;
import org.agentmemory.omission.control.OmissionStore;
import org.agentmemory.tokens.TokenCounter;

/**
 * The read path (spec §5.4 steps 1–5, §7.4, §8, §9): the one session bean behind the local and remote views of
 * {@link ContextMemoryOperations}.
 *
 * <p>Transactions: the operations read without a transaction ({@code NOT_SUPPORTED}: no row is locked while a
 * history is compacted, and a caller's own transaction is suspended, so what is returned does not depend on
 * it); the omissions a compaction produced are stored by {@link OmissionFlushBean} in a transaction of their own
 * that holds the conversation's row lock and commits before the answer is returned. If that store fails, the
 * answer is the plain rendering without omission ids and without a commit (spec §5.4 step 4), logged at WARNING.
 * Nothing else is written: the boundary and calibration change only when the commit comes back with the
 * round's turn ({@code ConversationMemoryBean.addTurn(key, turn, commit)}).
 */
@Stateless
@jakarta.interceptor.Interceptors(org.agentmemory.recall.boundary.ForegroundRequests.class)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ContextMemoryBean implements ContextMemory, ContextMemoryRemote {

    private static final Logger LOG = Logger.getLogger(ContextMemoryBean.class.getName());

    /** Model names already reported as unknown (spec §5.3: one INFO line each); bounded against odd clients. */
    private static final Set<String> REPORTED_FALLBACKS = ConcurrentHashMap.newKeySet();
    private static final int MAX_REPORTED_FALLBACKS = 1024;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Settings settings;

    @EJB
    OmissionFlushBean flusher;

    @Inject
    @Any
    Instance<ContextSectionProvider> providers;

    private ContextWindowFitter fitter;

    @PostConstruct
    void init() {
        fitter = new ContextWindowFitter(new Compactor(settings.tokenCounter(), settings.prunePolicies()));
    }

    private ConversationStore store() {
        return new ConversationStore(em);
    }

    @Override
    public ConversationContext context(ConversationKey key, ContextRequest request) throws InvalidInputException {
        InputRules.checkKey(key);
        ResolvedBudget budget = resolve(request);
        Conversation c = store().findByKey(key, false);
        return c == null ? empty(budget, request) : render(c, budget, request);
    }

    @Override
    public ConversationContext contextById(String tenantId, long conversationId, ContextRequest request)
            throws NotFoundException, InvalidInputException {
        ResolvedBudget budget = resolve(request);
        return render(existing(tenantId, conversationId), budget, request);
    }

    @Override
    public String readOmittedContent(String tenantId, long conversationId, String contentId, String turnId) {
        Conversation c = tenantId == null ? null : store().find(tenantId, conversationId, false);
        if (c == null) {
            return ContextMemoryOperations.UNAVAILABLE_MESSAGE;
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        OmissionStore omissions = new OmissionStore(em);
        return OmissionRecovery.answer(contentId, turnId, id -> omissions.get(c, id, now),
                turn -> omissions.listByTurn(c, turn, now));
    }

    @Override
    public AssembledContext assemble(ConversationKey key, ContextAssemblyRequest request) throws InvalidInputException {
        InputRules.checkKey(key);
        MemoryConfig config = checkAssembly(request);
        ResolvedBudget budget = resolve(request.context());
        Conversation c = store().findByKey(key, false);
        ConversationContext conversation = c == null ? empty(budget, request.context()) : render(c, budget, request.context());
        return assemble(key, conversation, request, config);
    }

    @Override
    public AssembledContext assembleById(String tenantId, long conversationId, ContextAssemblyRequest request)
            throws NotFoundException, InvalidInputException {
        MemoryConfig config = checkAssembly(request);
        ResolvedBudget budget = resolve(request.context());
        Conversation c = existing(tenantId, conversationId);
        return assemble(TurnMapper.key(c), render(c, budget, request.context()), request, config);
    }

    // ------------------------------------------------------------------------------------------------

    private ResolvedBudget resolve(ContextRequest request) throws InvalidInputException {
        ResolvedBudget budget = ContextBudgets.resolve(request, settings.modelWindows(), settings.tokenCounter(),
                settings.offloadThresholdTokens());
        if (budget.windowFallback()) {
            String model = request == null || request.model() == null ? "" : request.model();
            if (REPORTED_FALLBACKS.size() < MAX_REPORTED_FALLBACKS && REPORTED_FALLBACKS.add(model)) {
                LOG.info(() -> (model.isEmpty() ? "A context call named no model" : "Model '" + model + "' has no known"
                        + " context window") + "; using " + budget.window() + " tokens. Name the model's window with"
                        + " memory.compaction.model-windows or send an explicit window.");
            }
        }
        return budget;
    }

    private Conversation existing(String tenantId, long conversationId) throws NotFoundException {
        Conversation c = tenantId == null ? null : store().find(tenantId, conversationId, false);
        if (c == null) {
            throw new NotFoundException("conversation", Long.toString(conversationId),
                    "Conversation " + conversationId + " does not exist in tenant '" + tenantId + "'.");
        }
        return c;
    }

    /** The answer for a key without a conversation: an empty history, with a commit that only calibrates. */
    private ConversationContext empty(ResolvedBudget budget, ContextRequest request) {
        FittedHistory fitted = fitter.fitWithin(List.of(), budget.budget(), budget.historyBudget(), options(null, null, request));
        return ContextResults.fitted(null, fitted, budget, CompactionState.DEFAULT_CALIBRATION, settings.tokenCounter().name());
    }

    private ConversationContext render(Conversation c, ResolvedBudget budget, ContextRequest request) {
        CompactionState state = CompactionMetadata.read(c.getMetadata());
        double calibration = CompactionMetadata.calibration(state);
        String boundary = state == null ? null : state.boundaryTurnId();
        CompactionOptions options = options(c, state, request);
        HistoryWindow.Window window = HistoryWindow.plan(HistoryWindow.scan(em, c), budget.budget().maxTurns(),
                options.currentChatbotId(), options.includeOtherAgents());
        List<TurnRecord> turns = store().turns(c, window.afterSequence(), Integer.MAX_VALUE);
        if (!settings.compactionEnabled()) {
            return plain(c, turns, budget, options, boundary, calibration, "Compaction is disabled"
                    + " (memory.compaction.enabled=false): the newest turns are rendered as stored.");
        }
        FittedHistory fitted = HistoryWindow.withOlderDropped(
                fitter.fitWithin(turns, budget.budget(), budget.historyBudget(), options), window.olderCandidateIds());
        if (!fitted.omissions().isEmpty() && !flush(c, fitted.omissions())) {
            return plain(c, turns, budget, options, boundary, calibration, "The omitted tool outputs could not be"
                    + " stored, so the newest turns are rendered as stored, without compaction; try again.");
        }
        return ContextResults.fitted(c.getId(), fitted, budget, calibration, settings.tokenCounter().name());
    }

    private CompactionOptions options(Conversation c, CompactionState state, ContextRequest request) {
        String current = request != null && request.currentChatbotId() != null ? request.currentChatbotId()
                : c == null ? null : c.getChatbotId();
        boolean includeOthers = request == null || request.includeOtherAgents() == null || request.includeOtherAgents();
        return new CompactionOptions(state == null ? null : state.boundaryTurnId(), CompactionMetadata.calibration(state),
                current, includeOthers, Map.of());
    }

    /** Stores the omissions before anything is returned; {@code false} when that failed. */
    private boolean flush(Conversation c, List<PendingOmission> pending) {
        List<Omission> omissions = new ArrayList<>(pending.size());
        for (PendingOmission p : pending) {
            omissions.add(new Omission(p.contentId(), p.content(), p.turnId(), p.toolName(), p.field()));
        }
        try {
            return flusher.flush(c.getTenantId(), c.getId(), omissions, settings.omissionTtl());
        } catch (EJBException e) {
            LOG.log(Level.WARNING, "Storing " + omissions.size() + " omissions of conversation " + c.getId()
                    + " failed; answering with the plain rendering (spec §5.4 step 4)", e);
            return false;
        }
    }

    private ConversationContext plain(Conversation c, List<TurnRecord> turns, ResolvedBudget budget,
            CompactionOptions options, String boundary, double calibration, String reason) {
        List<HistoryMessage> messages = HistoryRenderer.renderTurns(turns, budget.budget().maxTurns(),
                options.currentChatbotId(), options.includeOtherAgents());
        TokenCounter counter = settings.tokenCounter();
        long tokens = 0;
        for (HistoryMessage message : messages) {
            tokens += counter.count(message.content());
        }
        return ContextResults.uncompacted(c.getId(), messages, (int) Math.min(Integer.MAX_VALUE, tokens), budget, boundary,
                calibration, counter.name(), reason);
    }

    private static MemoryConfig checkAssembly(ContextAssemblyRequest request) throws InvalidInputException {
        if (request == null) {
            throw new InvalidInputException("body", "required", "The assembly request is required (at least a query).");
        }
        if (request.query() == null) {
            throw new InvalidInputException("query", "required", "query is required: the text the sections are"
                    + " retrieved for (an empty string is allowed).");
        }
        InputRules.checkText("query", request.query(), InputRules.Controls.ANY);
        return AssemblyConfigs.toMemoryConfig(request.config());
    }

    private AssembledContext assemble(ConversationKey key, ConversationContext conversation, ContextAssemblyRequest request,
            MemoryConfig config) {
        Long id = conversation.conversationId();
        String episodic = section(new SectionQuery(ContextSection.EPISODIC_WARNINGS, key, id, request.query(),
                config.episodicMaxWarnings()));
        String skills = section(new SectionQuery(ContextSection.RELEVANT_SKILLS, key, id, request.query(),
                config.skillMaxContext()));
        String brain = config.enableBrain()
                ? section(new SectionQuery(ContextSection.BRAIN_KNOWLEDGE, key, id, request.query(), 0)) : "";
        MemoryContext assembled = new ContextAssembler(config).assemble(episodic, skills,
                ConversationLines.flatten(conversation.messages()), brain);
        return new AssembledContext(id, assembled.episodicWarnings(), assembled.relevantSkills(),
                assembled.conversationSummary(), assembled.semanticKnowledge(), assembled.tokensUsed(),
                assembled.tokensBudget(), assembled.toPromptString(), conversation.outcome());
    }

    /** The text of one section from the providers plugged in now (looked up per call). */
    private String section(SectionQuery query) {
        List<ContextSections.Plugged> plugged = new ArrayList<>();
        for (Instance.Handle<ContextSectionProvider> handle : providers.handles()) {
            plugged.add(new ContextSections.Plugged(handle.getBean().getBeanClass().getName(), handle.get()));
        }
        return ContextSections.fill(plugged, query);
    }
}
