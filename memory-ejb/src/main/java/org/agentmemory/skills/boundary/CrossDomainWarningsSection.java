package org.agentmemory.skills.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import org.agentmemory.api.context.ContextSection;
import org.agentmemory.api.context.ContextSectionProvider;
import org.agentmemory.api.context.SectionQuery;

/**
 * Adds other agents' failure warnings to the {@code <past_failures_to_avoid>} section (spec §9.3 branch 1, §9.5): after
 * the agent's own warnings ({@link #order()} {@value #ORDER}, after episodic memory's provider at 0), each routed
 * agent's under {@code [cross-domain: {agentId}]}, in decay order ({@link AgentRoutingBean}). The assembler joins the
 * two with a blank line and fits the section into its budget, which cuts the cross-domain part first. A failure here
 * is logged by the assembler and leaves the agent's own warnings intact. A conversation of the default agent (no
 * chatbot id) is routed nowhere, as it has no warnings of its own either.
 */
@ApplicationScoped
public class CrossDomainWarningsSection implements ContextSectionProvider {

    /** After the agent's own warnings. */
    static final int ORDER = 100;

    @EJB
    AgentRoutingBean router;

    @Override
    public ContextSection section() {
        return ContextSection.EPISODIC_WARNINGS;
    }

    @Override
    public int order() {
        return ORDER;
    }

    @Override
    public String provide(SectionQuery query) {
        String agent = query.key().chatbotId();
        if (agent == null || query.maxItems() < 1) {
            return "";
        }
        return router.crossDomainWarnings(
                query.key().tenantId(), agent, query.key().userId(), query.query(), query.maxItems());
    }
}
