package org.agentmemory.context.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.compaction.HistorySummary;
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
import org.agentmemory.api.omission.Omission;
import org.agentmemory.context.control.AssemblyConfigs;
import org.agentmemory.context.control.ContextAssembler;
import org.agentmemory.context.control.ContextSections;
import org.agentmemory.context.control.ConversationLines;
import org.agentmemory.context.control.ConversationRendering;
import org.agentmemory.context.control.MemoryConfig;
import org.agentmemory.context.control.MemoryContext;
import org.agentmemory.context.control.OmissionRecovery;
import org.agentmemory.context.control.ResolvedBudget;
import org.agentmemory.conversation.boundary.ConversationReaderBean;
import org.agentmemory.conversation.boundary.ConversationReaderBean.StoredConversation;
import org.agentmemory.conversation.boundary.OmissionFlushBean;
import org.agentmemory.omission.boundary.OmissionStoreBean;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.load.ForegroundRequests;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.validation.InputRules;

/**
 * The read path (spec §5.4 steps 1–5, §7.4, §8, §9): the one session bean behind the local and remote views of
 * {@link ContextMemoryOperations}. It reads the conversation through the conversation component
 * ({@link ConversationReaderBean}), with its Stage 2 summary when turns are left out, and renders it with
 * {@link ConversationRendering}.
 *
 * <p>Transactions: the operations read without a transaction ({@code NOT_SUPPORTED}: no row is locked while a
 * history is compacted, and a caller's own transaction is suspended, so what is returned does not depend on
 * it); the omissions a compaction produced are stored by {@link OmissionFlushBean} in a transaction of their own
 * that holds the conversation's row lock and commits before the answer is returned. If that store fails, the
 * answer is the plain rendering without omission ids and without a commit (spec §5.4 step 4), logged at WARNING.
 * Nothing else is written: the boundary and calibration change only when the commit comes back with the
 * round's turn ({@code ConversationMemory.addTurn(key, turn, commit)}).
 */
@jakarta.annotation.security.DeclareRoles({
    RequiresRole.READER,
    RequiresRole.WRITER,
    RequiresRole.ADMIN,
    RequiresRole.OPERATOR
})
@jakarta.annotation.security.PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@Interceptors({CallerScope.class, ForegroundRequests.class})
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ContextMemoryBean implements ContextMemory, ContextMemoryRemote {

    private static final Logger LOG = Logger.getLogger(ContextMemoryBean.class.getName());

    @EJB
    ConversationReaderBean conversations;

    @EJB
    OmissionFlushBean flusher;

    @EJB
    OmissionStoreBean omissionStore;

    @Inject
    Settings settings;

    @Inject
    ContextConfiguration configuration;

    @Inject
    @Any
    Instance<ContextSectionProvider> providers;

    @Override
    public ConversationContext context(ConversationKey key, ContextRequest request) throws InvalidInputException {
        InputRules.checkKey(key);
        ResolvedBudget budget = configuration.rendering().resolve(request);
        return render(conversations.find(key), budget, request);
    }

    @Override
    public ConversationContext contextById(String tenantId, long conversationId, ContextRequest request)
            throws NotFoundException, InvalidInputException {
        ResolvedBudget budget = configuration.rendering().resolve(request);
        return render(existing(tenantId, conversationId), budget, request);
    }

    @Override
    public String readOmittedContent(String tenantId, long conversationId, String contentId, String turnId) {
        StoredConversation c = conversations.find(tenantId, conversationId);
        if (c == null) {
            return ContextMemoryOperations.UNAVAILABLE_MESSAGE;
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return OmissionRecovery.answer(
                contentId,
                turnId,
                id -> omissionStore.get(tenantId, c.id(), id, now),
                turn -> omissionStore.listByTurn(tenantId, c.id(), turn, now));
    }

    @Override
    public HistorySummary summary(String tenantId, long conversationId) throws NotFoundException {
        existing(tenantId, conversationId);
        return conversations.summary(tenantId, conversationId);
    }

    @Override
    public AssembledContext assemble(ConversationKey key, ContextAssemblyRequest request) throws InvalidInputException {
        InputRules.checkKey(key);
        MemoryConfig config = checkAssembly(request);
        ResolvedBudget budget = configuration.rendering().resolve(request.context());
        return assemble(key, render(conversations.find(key), budget, request.context()), request, config);
    }

    @Override
    public AssembledContext assembleById(String tenantId, long conversationId, ContextAssemblyRequest request)
            throws NotFoundException, InvalidInputException {
        MemoryConfig config = checkAssembly(request);
        ResolvedBudget budget = configuration.rendering().resolve(request.context());
        StoredConversation c = existing(tenantId, conversationId);
        return assemble(c.key(), render(c, budget, request.context()), request, config);
    }

    // ------------------------------------------------------------------------------------------------

    private StoredConversation existing(String tenantId, long conversationId) throws NotFoundException {
        StoredConversation c = conversations.find(tenantId, conversationId);
        if (c == null) {
            throw NotFoundException.conversation(tenantId, conversationId);
        }
        return c;
    }

    /** The conversation rendered for the budget; for a key without a conversation, the empty history. */
    private ConversationContext render(StoredConversation c, ResolvedBudget budget, ContextRequest request) {
        ConversationRendering rendering = configuration.rendering();
        if (c == null) {
            return rendering.empty(budget, request);
        }
        return rendering.render(
                new ConversationRendering.Stored(c.id(), c.chatbotId(), c.metadata()),
                (maxTurns, current, includeOthers) -> {
                    ConversationReaderBean.HistoryTail tail =
                            conversations.historyTail(c.id(), maxTurns, current, includeOthers);
                    return new ConversationRendering.Tail(tail.turns(), tail.olderCandidateIds());
                },
                () -> conversations.summary(c.key().tenantId(), c.id()),
                omissions -> flush(c, omissions),
                budget,
                request);
    }

    /** Stores the omissions before anything is returned; {@code false} when that failed. */
    private boolean flush(StoredConversation c, List<Omission> omissions) {
        try {
            return flusher.flush(c.key().tenantId(), c.id(), omissions, settings.omissionTtl());
        } catch (EJBException e) {
            LOG.log(
                    Level.WARNING,
                    "Storing " + omissions.size() + " omissions of conversation " + c.id()
                            + " failed; answering with the plain rendering (spec §5.4 step 4)",
                    e);
            return false;
        }
    }

    private static MemoryConfig checkAssembly(ContextAssemblyRequest request) throws InvalidInputException {
        if (request == null) {
            throw new InvalidInputException("body", "required", "The assembly request is required (at least a query).");
        }
        if (request.query() == null) {
            throw new InvalidInputException(
                    "query",
                    "required",
                    "query is required: the text the sections are" + " retrieved for (an empty string is allowed).");
        }
        InputRules.checkText("query", request.query(), InputRules.Controls.ANY);
        return AssemblyConfigs.toMemoryConfig(request.config());
    }

    private AssembledContext assemble(
            ConversationKey key,
            ConversationContext conversation,
            ContextAssemblyRequest request,
            MemoryConfig config) {
        Long id = conversation.conversationId();
        String episodic = section(new SectionQuery(
                ContextSection.EPISODIC_WARNINGS, key, id, request.query(), config.episodicMaxWarnings()));
        String skills = section(
                new SectionQuery(ContextSection.RELEVANT_SKILLS, key, id, request.query(), config.skillMaxContext()));
        String brain = config.enableBrain()
                ? section(new SectionQuery(ContextSection.BRAIN_KNOWLEDGE, key, id, request.query(), 0))
                : "";
        MemoryContext assembled = new ContextAssembler(config, settings.tokenCounter()::count)
                .assemble(episodic, skills, ConversationLines.messages(conversation.messages()), brain);
        return new AssembledContext(
                id,
                assembled.episodicWarnings(),
                assembled.relevantSkills(),
                assembled.conversationSummary(),
                assembled.semanticKnowledge(),
                assembled.tokensUsed(),
                assembled.tokensBudget(),
                assembled.toPromptString(),
                conversation.outcome());
    }

    /** The text of one section from the providers plugged in now (looked up per call). */
    private String section(SectionQuery query) {
        List<ContextSections.Plugged> plugged = new ArrayList<>();
        for (Instance.Handle<ContextSectionProvider> handle : providers.handles()) {
            plugged.add(
                    new ContextSections.Plugged(handle.getBean().getBeanClass().getName(), handle.get()));
        }
        return ContextSections.fill(plugged, query);
    }
}
