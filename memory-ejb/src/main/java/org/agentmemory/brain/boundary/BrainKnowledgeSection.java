package org.agentmemory.brain.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.brain.BrainMemory;
import org.agentmemory.api.brain.BrainMemoryOperations;
import org.agentmemory.api.brain.BrainRef;
import org.agentmemory.api.context.ContextSection;
import org.agentmemory.api.context.ContextSectionProvider;
import org.agentmemory.api.context.SectionQuery;

/**
 * Fills the {@code <brain_knowledge>} section of an assembled context (spec §9.3 branch 4, §12.6): the agent's brain
 * searched for the query, then the organisation's, each packed as stub lines into
 * {@value BrainMemoryOperations#DEFAULT_KNOWLEDGE_TOKENS} tokens (spec §12.4), joined by a blank line. A conversation
 * of the default agent (no chatbot id) reads the organisation brain only. The assembler then fits the section into
 * its share of the budget.
 */
@ApplicationScoped
public class BrainKnowledgeSection implements ContextSectionProvider {

    /** Pages per brain, as the reference's {@code search} default. */
    static final int TOP_K = 5;

    @EJB
    BrainMemory brains;

    @Override
    public ContextSection section() {
        return ContextSection.BRAIN_KNOWLEDGE;
    }

    @Override
    public String provide(SectionQuery query) {
        String tenant = query.key().tenantId();
        String agent = query.key().chatbotId();
        try {
            String own = agent == null ? "" : knowledge(new BrainRef(tenant, agent), query.query());
            String organisation = knowledge(new BrainRef(tenant, null), query.query());
            if (own.isEmpty()) {
                return organisation;
            }
            return organisation.isEmpty() ? own : own + "\n\n" + organisation;
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private String knowledge(BrainRef brain, String query) throws InvalidInputException {
        return brains.knowledge(brain, query, TOP_K, BrainMemoryOperations.DEFAULT_KNOWLEDGE_TOKENS);
    }
}
