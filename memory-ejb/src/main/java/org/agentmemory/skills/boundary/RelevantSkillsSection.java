package org.agentmemory.skills.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.context.ContextSection;
import org.agentmemory.api.context.ContextSectionProvider;
import org.agentmemory.api.context.SectionQuery;
import org.agentmemory.api.skills.SkillRegistry;
import org.agentmemory.api.skills.SkillRegistryOperations;

/**
 * Fills the {@code <relevant_skills>} section of an assembled context (spec §9.3 branch 2 {@code get_relevant_skills}):
 * the conversation's agent's best skills for the query, at most the configured {@code skillMaxContext}
 * ({@link SkillRegistryOperations#relevantSkills}). The assembler fits the section into its share of the budget (spec
 * §9.2). A conversation of the default agent (no chatbot id) has no skills.
 */
@ApplicationScoped
public class RelevantSkillsSection implements ContextSectionProvider {

    @EJB
    SkillRegistry skills;

    @Override
    public ContextSection section() {
        return ContextSection.RELEVANT_SKILLS;
    }

    @Override
    public String provide(SectionQuery query) {
        String agent = query.key().chatbotId();
        if (agent == null || query.maxItems() < 1) {
            return "";
        }
        try {
            return skills.relevantSkills(
                    query.key().tenantId(),
                    agent,
                    query.query(),
                    Math.min(query.maxItems(), SkillRegistryOperations.MAX_TOP_K));
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
