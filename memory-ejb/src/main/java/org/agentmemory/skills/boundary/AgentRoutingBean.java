package org.agentmemory.skills.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.episodic.EpisodicMemory;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.embedding.QueryVectors;
import org.agentmemory.skills.control.CrossDomainRouting;
import org.agentmemory.skills.entity.RegisteredAgent;

/**
 * The cross-domain router (spec §9.5, issue 35 item 3; the rule is {@link CrossDomainRouting}'s): which other agents of
 * the tenant a query is routed to, and their failure warnings under {@code [cross-domain: {agentId}]}. Reads the
 * tenant's registrations only, so another tenant's agents are never candidates.
 *
 * <p>A registration whose description has no vector of the current model yet is embedded here and the vector kept
 * ({@link AgentWriterBean#cache}); one the model cannot embed is logged and skipped. A query the model cannot embed
 * routes nowhere. One agent's warnings failing is logged and skips that agent; nothing here fails the caller.
 */
@Stateless
@LocalBean
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class AgentRoutingBean {

    private static final Logger LOG = Logger.getLogger(AgentRoutingBean.class.getName());

    /**
     * Most registrations compared with one query, the first by agent id: a tenant with more agents is routed among
     * those only (logged at WARNING when it happens).
     */
    static final int MAX_CANDIDATES = 1_000;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    AgentWriterBean writer;

    @EJB
    EpisodicMemory episodes;

    @Inject
    Settings settings;

    @Inject
    SkillsConfig config;

    /**
     * @param tenantId    the tenant
     * @param askingAgent the agent whose context is assembled
     * @param query       the query
     * @param maxWarnings the asking agent's warning count, ≥ 1
     * @return the routes, highest relevance first; empty when the router is off, the query is blank or cannot be
     *         embedded, or no other agent is similar enough
     */
    public List<CrossDomainRouting.Route> route(String tenantId, String askingAgent, String query, int maxWarnings) {
        CrossDomainRouting.Limits limits = config.routing();
        if (limits.maxAgents() == 0 || query == null || query.isBlank() || maxWarnings < 1) {
            return List.of();
        }
        EmbeddingModel model = settings.embeddingModel();
        // bounded as the skills and recall queries are: a long assembly query embeds its first words only
        float[] vector = QueryVectors.orNull(
                model, org.agentmemory.api.recall.QueryTerms.bound(query).text());
        if (vector == null) {
            return List.of();
        }
        List<RegisteredAgent> rows = em.createQuery(
                        "select r from RegisteredAgent r where r.tenantId = :tenant and r.agentId <> :asking"
                                + " and r.domainDescription is not null order by r.agentId",
                        RegisteredAgent.class)
                .setParameter("tenant", tenantId)
                .setParameter("asking", askingAgent)
                .setMaxResults(MAX_CANDIDATES)
                .getResultList();
        if (rows.size() == MAX_CANDIDATES) {
            LOG.warning(() -> "Tenant '" + tenantId + "' has " + MAX_CANDIDATES + " or more registered agents; the"
                    + " cross-domain router compares a query with the first " + MAX_CANDIDATES + " by agent id only");
        }
        List<CrossDomainRouting.Candidate> candidates = new ArrayList<>(rows.size());
        for (RegisteredAgent row : rows) {
            float[] description = descriptionVector(row, model);
            if (description != null) {
                candidates.add(new CrossDomainRouting.Candidate(row.getAgentId(), description));
            }
        }
        return CrossDomainRouting.route(vector, askingAgent, candidates, limits, maxWarnings);
    }

    /**
     * The cross-domain part of the episodic-warnings section (spec §9.3 branch 1): each routed agent's failure warnings
     * for the query, scoped to the asking conversation's user as the agent's own are (spec §13 #6), at most the
     * route's count, under {@code [cross-domain: {agentId}]}, in route order.
     *
     * @param tenantId    the tenant
     * @param askingAgent the agent whose context is assembled
     * @param userId      the conversation's user
     * @param query       the query
     * @param maxWarnings the asking agent's warning count
     * @return the text, or {@code ""}
     */
    public String crossDomainWarnings(
            String tenantId, String askingAgent, String userId, String query, int maxWarnings) {
        List<Map.Entry<String, String>> blocks = new ArrayList<>();
        for (CrossDomainRouting.Route r : route(tenantId, askingAgent, query, maxWarnings)) {
            try {
                blocks.add(new AbstractMap.SimpleEntry<>(
                        r.agentId(),
                        episodes.failureWarnings(
                                MemoryNamespace.of(tenantId, r.agentId()).withUser(userId), query, r.warnings())));
            } catch (InvalidInputException | RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "Failure warnings of agent " + r.agentId() + " for a cross-domain query failed; the section"
                                + " goes on without them",
                        e);
            }
        }
        return CrossDomainRouting.render(blocks);
    }

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @return its registration's extraction setting, or {@code null} when it is not registered or does not say
     */
    public Boolean autoExtract(String tenantId, String agentId) {
        List<Boolean> found = em.createQuery(
                        "select r.skillAutoExtract from RegisteredAgent r where r.tenantId = :tenant"
                                + " and r.agentId = :agent",
                        Boolean.class)
                .setParameter("tenant", tenantId)
                .setParameter("agent", agentId)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /** @return the description's vector of the current model, computed and kept when missing; {@code null} to skip */
    private float[] descriptionVector(RegisteredAgent row, EmbeddingModel model) {
        if (model.name().equals(row.getEmbeddingModel())) {
            if (row.getEmbedding() == null) {
                LOG.fine(() -> "Agent " + row.getAgentId() + " skipped: its description cannot be embedded");
            }
            return row.getEmbedding();
        }
        AgentWriterBean.DescriptionVector vector =
                AgentWriterBean.embed(model, row.getAgentId(), row.getDomainDescription());
        if (!vector.settled()) {
            return null; // the model failed, not the text: tried again on the next query
        }
        try {
            writer.cache(
                    row.getTenantId(), row.getAgentId(), row.getDomainDescription(), vector.vector(), model.name());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Caching the description vector of agent " + row.getAgentId() + " failed", e);
        }
        return vector.vector();
    }
}
