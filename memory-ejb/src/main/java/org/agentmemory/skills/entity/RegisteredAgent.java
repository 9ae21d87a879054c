package org.agentmemory.skills.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Objects;
import org.agentmemory.platform.json.UtcInstantConverter;
import org.agentmemory.platform.search.VectorBytesConverter;

/**
 * An agent registered in its tenant (spec §9.5 registry, issue 35 item 3): the domain it covers, with the cached
 * vector of that description, and its skill settings. Not indexed: the router reads a tenant's registrations from the
 * table.
 *
 * <p>The cache: {@code embeddingModel} names the model the description was last given to; {@code embedding} is its
 * vector, or {@code null} when that model could not embed it. A changed description clears both.
 */
@Entity
@Table(name = "registered_agent")
public class RegisteredAgent {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "registered_agent_seq")
    @SequenceGenerator(name = "registered_agent_seq", sequenceName = "registered_agent_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "agent_id", nullable = false, length = 512)
    private String agentId;

    @Column(name = "domain_description")
    private String domainDescription;

    @Column(name = "skill_auto_extract")
    private Boolean skillAutoExtract;

    @Convert(converter = VectorBytesConverter.class)
    @Column(name = "embedding")
    private float[] embedding;

    @Column(name = "embedding_model", length = 64)
    private String embeddingModel;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected RegisteredAgent() {}

    /**
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param now      when it is registered
     */
    public RegisteredAgent(String tenantId, String agentId, Instant now) {
        this.tenantId = tenantId;
        this.agentId = agentId;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /**
     * Sets the registration; a changed description drops the cached vector.
     *
     * @param description the domain description, or {@code null}
     * @param autoExtract the skill extraction setting, or {@code null}
     * @param now         the change's time
     * @return whether anything changed
     */
    public boolean register(String description, Boolean autoExtract, Instant now) {
        boolean descriptionChanged = !Objects.equals(domainDescription, description);
        if (!descriptionChanged && Objects.equals(skillAutoExtract, autoExtract)) {
            return false;
        }
        if (descriptionChanged) {
            embedding = null;
            embeddingModel = null;
        }
        domainDescription = description;
        skillAutoExtract = autoExtract;
        updatedAt = now;
        return true;
    }

    /**
     * Caches the description's vector.
     *
     * @param vector the vector, or {@code null} when the model could not embed the description
     * @param model  the model it was given to
     */
    public void embed(float[] vector, String model) {
        this.embedding = vector;
        this.embeddingModel = model;
    }

    public Long getId() {
        return id;
    }

    public String getTenantId() {
        return tenantId;
    }

    public String getAgentId() {
        return agentId;
    }

    public String getDomainDescription() {
        return domainDescription;
    }

    public Boolean getSkillAutoExtract() {
        return skillAutoExtract;
    }

    public float[] getEmbedding() {
        return embedding;
    }

    public String getEmbeddingModel() {
        return embeddingModel;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }
}
