package org.agentmemory.skills.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.skills.AgentRegistration;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.skills.entity.RegisteredAgent;

/**
 * Writes the registry of agents (spec §9.5), each write in a transaction of its own under the row's lock: a
 * registration (with its description's vector, computed when the description is new or the model changed), a removal,
 * and the router's cache of a vector it computed. A description the model cannot embed is kept with no vector and the
 * model's name, so the router skips it without asking the model again until the description or the model changes.
 */
@Stateless
@LocalBean
public class AgentWriterBean {

    private static final Logger LOG = Logger.getLogger(AgentWriterBean.class.getName());

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Settings settings;

    /**
     * @param tenantId    the tenant
     * @param agentId     the agent
     * @param description the checked description, or {@code null}
     * @param autoExtract the extraction setting, or {@code null}
     * @param now         the write's time
     * @return the registration
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public AgentRegistration register(
            String tenantId, String agentId, String description, Boolean autoExtract, Instant now) {
        RegisteredAgent row = find(tenantId, agentId, true);
        boolean created = row == null;
        if (created) {
            row = new RegisteredAgent(tenantId, agentId, now);
        }
        row.register(description, autoExtract, now);
        EmbeddingModel model = settings.embeddingModel();
        if (description != null && !model.name().equals(row.getEmbeddingModel())) {
            DescriptionVector vector = embed(model, agentId, description);
            row.embed(vector.vector(), vector.settled() ? model.name() : null);
        }
        if (created) {
            em.persist(row);
        }
        em.flush();
        return record(row, model.name());
    }

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @throws NotFoundException when the agent is not registered in the tenant
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void remove(String tenantId, String agentId) throws NotFoundException {
        RegisteredAgent row = find(tenantId, agentId, true);
        if (row == null) {
            throw notFound(tenantId, agentId);
        }
        em.remove(row);
        em.flush();
    }

    /**
     * Keeps a vector the router computed, unless the description changed meanwhile.
     *
     * @param tenantId    the tenant
     * @param agentId     the agent
     * @param description the description that was embedded
     * @param vector      its vector, or {@code null} when the model could not embed it
     * @param model       the model
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void cache(String tenantId, String agentId, String description, float[] vector, String model) {
        RegisteredAgent row = find(tenantId, agentId, true);
        if (row != null && Objects.equals(row.getDomainDescription(), description)) {
            row.embed(vector, model);
        }
    }

    /**
     * A description's vector, or why there is none.
     *
     * @param vector  the vector, or {@code null}
     * @param settled whether the outcome is the description's own: a vector, or text the model reads nothing in
     *                (kept, and the router skips the agent until the description or the model changes); {@code false}
     *                after a failure of the model itself, which the next write or routing tries again
     */
    record DescriptionVector(float[] vector, boolean settled) {}

    /**
     * @param model       the model
     * @param agentId     the agent (for the log)
     * @param description the description
     * @return its vector, or none with whether that is settled (logged)
     */
    static DescriptionVector embed(EmbeddingModel model, String agentId, String description) {
        try {
            return new DescriptionVector(model.embed(description), true);
        } catch (IllegalArgumentException unreadable) {
            // the model reads nothing in it (e.g. only U+FFFD): the text's fault, no stack trace needed
            LOG.warning(() -> "The domain description of agent " + agentId + " could not be embedded by " + model.name()
                    + " (" + unreadable.getMessage() + "); the cross-domain router skips the agent until its"
                    + " description changes");
            return new DescriptionVector(null, true);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(
                    Level.WARNING,
                    "The embedding model " + model.name() + " failed on the domain description of agent " + agentId
                            + "; the cross-domain router skips the agent until a later write or query embeds it",
                    e);
            return new DescriptionVector(null, false);
        }
    }

    private RegisteredAgent find(String tenantId, String agentId, boolean lock) {
        List<RegisteredAgent> found = em.createQuery(
                        "select r from RegisteredAgent r where r.tenantId = :tenant and r.agentId = :agent",
                        RegisteredAgent.class)
                .setParameter("tenant", tenantId)
                .setParameter("agent", agentId)
                .setLockMode(lock ? LockModeType.PESSIMISTIC_WRITE : LockModeType.NONE)
                .getResultList();
        return found.isEmpty() ? null : found.get(0);
    }

    /** @return the answer for an agent not registered in the tenant */
    static NotFoundException notFound(String tenantId, String agentId) {
        return new NotFoundException(
                "agent", agentId, "Agent " + agentId + " is not registered in tenant '" + tenantId + "'.");
    }

    /**
     * @param row   a registration
     * @param model the configured model's name
     * @return its transfer record
     */
    static AgentRegistration record(RegisteredAgent row, String model) {
        return new AgentRegistration(
                row.getAgentId(),
                row.getDomainDescription(),
                row.getSkillAutoExtract(),
                row.getEmbedding() != null && model.equals(row.getEmbeddingModel()),
                row.getCreatedAt(),
                row.getUpdatedAt());
    }
}
