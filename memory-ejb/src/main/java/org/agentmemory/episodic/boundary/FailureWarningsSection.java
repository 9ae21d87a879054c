package org.agentmemory.episodic.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.context.ContextSection;
import org.agentmemory.api.context.ContextSectionProvider;
import org.agentmemory.api.context.SectionQuery;
import org.agentmemory.api.episodic.EpisodicMemory;
import org.agentmemory.api.episodic.MemoryNamespace;

/**
 * Fills the {@code <past_failures_to_avoid>} section of an assembled context (spec §9.3 branch 1): the failure
 * warnings of the conversation's agent for the query, scoped to the conversation's user (spec §13 #6: the reference
 * leaked lessons across users), at most the configured number of warnings. A conversation of the default agent (no
 * chatbot id) has no episodes to warn from.
 */
@ApplicationScoped
public class FailureWarningsSection implements ContextSectionProvider {

    @EJB
    EpisodicMemory episodes;

    @Override
    public ContextSection section() {
        return ContextSection.EPISODIC_WARNINGS;
    }

    @Override
    public String provide(SectionQuery query) {
        String agent = query.key().chatbotId();
        if (agent == null || query.maxItems() < 1) {
            return "";
        }
        try {
            return episodes.failureWarnings(
                    MemoryNamespace.of(query.key().tenantId(), agent)
                            .withUser(query.key().userId()),
                    query.query(),
                    query.maxItems());
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
