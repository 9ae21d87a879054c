package org.agentmemory.skills.boundary;

import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.skills.AgentRegistration;
import org.agentmemory.api.skills.AgentRegistry;
import org.agentmemory.api.skills.AgentRegistryRemote;
import org.agentmemory.api.skills.RelevantAgent;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.load.ForegroundRequests;
import org.agentmemory.platform.paging.Cursors;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.validation.InputRules;
import org.agentmemory.skills.control.CrossDomainRouting;
import org.agentmemory.skills.entity.RegisteredAgent;

/**
 * The registry of agents and the router's answer ({@link AgentRegistry}, issue 35 item 3; spec §9.5): registrations
 * written by {@link AgentWriterBean}, read per tenant, and the routes of {@link AgentRoutingBean}.
 */
@DeclareRoles({RequiresRole.READER, RequiresRole.WRITER, RequiresRole.ADMIN, RequiresRole.OPERATOR})
@PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@Interceptors({CallerScope.class, ForegroundRequests.class})
public class AgentRegistryBean implements AgentRegistry, AgentRegistryRemote {

    private static final Logger LOG = Logger.getLogger(AgentRegistryBean.class.getName());

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @EJB
    AgentWriterBean writer;

    @EJB
    AgentRoutingBean routing;

    @Inject
    Settings settings;

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public AgentRegistration registerAgent(
            String tenantId, String agentId, String domainDescription, Boolean skillAutoExtract)
            throws InvalidInputException {
        checkAgent(tenantId, agentId);
        if (domainDescription != null) {
            if (domainDescription.isBlank()) {
                throw new InvalidInputException(
                        "domainDescription",
                        "not-blank",
                        "domainDescription must contain a non-whitespace character, or be absent for an agent that"
                                + " takes no part in routing.");
            }
            InputRules.checkText("domainDescription", domainDescription, InputRules.Controls.NO_NUL, MAX_DESCRIPTION);
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        try {
            return writer.register(tenantId, agentId, domainDescription, skillAutoExtract, now);
        } catch (EJBException firstWriteRace) {
            // Another first registration of the agent won the insert; the row exists now.
            LOG.log(Level.FINE, "Agent registration retried", firstWriteRace);
            return writer.register(tenantId, agentId, domainDescription, skillAutoExtract, now);
        }
    }

    @Override
    public AgentRegistration getAgent(String tenantId, String agentId) throws NotFoundException, InvalidInputException {
        checkAgent(tenantId, agentId);
        List<RegisteredAgent> found = em.createQuery(
                        "select r from RegisteredAgent r where r.tenantId = :tenant and r.agentId = :agent",
                        RegisteredAgent.class)
                .setParameter("tenant", tenantId)
                .setParameter("agent", agentId)
                .getResultList();
        if (found.isEmpty()) {
            throw AgentWriterBean.notFound(tenantId, agentId);
        }
        return AgentWriterBean.record(found.get(0), settings.embeddingModel().name());
    }

    @Override
    public Page<AgentRegistration> listAgents(String tenantId, int limit, String cursor) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        Cursors.checkLimit(limit);
        String after = Cursors.textBound(cursor);
        var rows = em.createQuery(
                        "select r from RegisteredAgent r where r.tenantId = :tenant"
                                + (after == null ? "" : " and r.agentId > :after")
                                + " order by r.agentId",
                        RegisteredAgent.class)
                .setParameter("tenant", tenantId)
                .setMaxResults(limit + 1);
        if (after != null) {
            rows.setParameter("after", after);
        }
        List<RegisteredAgent> found = rows.getResultList();
        boolean more = found.size() > limit;
        List<RegisteredAgent> items = more ? found.subList(0, limit) : found;
        String model = settings.embeddingModel().name();
        List<AgentRegistration> registrations = new ArrayList<>(items.size());
        items.forEach(row -> registrations.add(AgentWriterBean.record(row, model)));
        return new Page<>(
                registrations, more ? Cursors.ofText(items.get(items.size() - 1).getAgentId()) : null);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void removeAgent(String tenantId, String agentId) throws NotFoundException, InvalidInputException {
        checkAgent(tenantId, agentId);
        writer.remove(tenantId, agentId);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<RelevantAgent> relevantAgents(String tenantId, String agentId, String query, int maxWarnings)
            throws InvalidInputException {
        checkAgent(tenantId, agentId);
        if (maxWarnings < 1 || maxWarnings > 1_000) {
            throw new InvalidInputException("maxWarnings", "range", "maxWarnings must be between 1 and 1000.");
        }
        InputRules.checkText("query", query, InputRules.Controls.NO_NUL);
        List<RelevantAgent> relevant = new ArrayList<>();
        for (CrossDomainRouting.Route r : routing.route(tenantId, agentId, query, maxWarnings)) {
            relevant.add(new RelevantAgent(r.agentId(), r.similarity(), r.relevance(), r.warnings()));
        }
        return relevant;
    }

    private static void checkAgent(String tenantId, String agentId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("agentId", agentId);
    }
}
