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
import java.util.ArrayList;
import java.util.List;
import org.agentmemory.platform.json.JsonStringListConverter;
import org.agentmemory.platform.json.UtcInstantConverter;
import org.agentmemory.platform.search.EnglishAnalysisConfigurer;
import org.hibernate.search.engine.backend.types.Projectable;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.FullTextField;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.Indexed;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.KeywordField;

/**
 * A skill of an agent (issue 35 item 2): one row per (tenant, agent, name). The row is the truth; the search index
 * ({@value #INDEX}) holds name, description and instructions for full-text search, the tenant and agent as filters,
 * and the vector of name, description, tools and instructions ({@code SkillVectorField}).
 */
@Entity
@jakarta.persistence.EntityListeners(org.agentmemory.platform.search.IndexWritesListener.class)
@Table(name = "skill")
@Indexed(index = Skill.INDEX)
public class Skill {

    /** The search index of skills. */
    public static final String INDEX = "skill";

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "skill_seq")
    @SequenceGenerator(name = "skill_seq", sequenceName = "skill_seq", allocationSize = 50)
    private Long id;

    @KeywordField
    @Column(name = "skill_id", nullable = false, length = 36)
    private String skillId;

    @KeywordField
    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @KeywordField
    @Column(name = "agent_id", nullable = false, length = 512)
    private String agentId;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "name", nullable = false, length = 800)
    private String name;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "description", nullable = false)
    private String description;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "instructions", nullable = false)
    private String instructions;

    @Convert(converter = JsonStringListConverter.class)
    @Column(name = "tools", nullable = false)
    private List<String> tools = new ArrayList<>();

    @Convert(converter = JsonStringListConverter.class)
    @Column(name = "examples", nullable = false)
    private List<String> examples = new ArrayList<>();

    @KeywordField
    @Column(name = "source", nullable = false, length = 16)
    private String source;

    @Convert(converter = JsonStringListConverter.class)
    @Column(name = "evidence", nullable = false)
    private List<String> evidence = new ArrayList<>();

    @Column(name = "version", nullable = false)
    private long version;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    // Indexed as a vector field by SkillVectorField (the similarity depends on the backend).
    @Convert(converter = org.agentmemory.platform.search.VectorBytesConverter.class)
    @Column(name = "embedding")
    private float[] embedding;

    /**
     * The model of {@link #embedding}; indexed so the vector leg compares only vectors of the configured model,
     * projectable so that the index can be compared with the table after a crash ({@code IndexReconciliationBean}).
     */
    @KeywordField(projectable = Projectable.YES)
    @Column(name = "embedding_model", length = 64)
    private String embeddingModel;

    protected Skill() {}

    /**
     * A new skill, version 1; {@link #write} fills it.
     *
     * @param skillId  the public UUID
     * @param tenantId the tenant
     * @param agentId  the agent
     * @param source   {@code manual} or {@code extracted}
     * @param now      the time of the first write
     */
    public Skill(String skillId, String tenantId, String agentId, String source, Instant now) {
        this.skillId = skillId;
        this.tenantId = tenantId;
        this.agentId = agentId;
        this.source = source;
        this.version = 1;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /**
     * Sets the fields a write gives.
     *
     * @param newName         the name
     * @param newDescription  the description
     * @param newInstructions the instructions
     * @param newTools        the tools
     * @param newExamples     the examples
     * @param newEvidence     the evidence references
     */
    public void write(
            String newName,
            String newDescription,
            String newInstructions,
            List<String> newTools,
            List<String> newExamples,
            List<String> newEvidence) {
        this.name = newName;
        this.description = newDescription;
        this.instructions = newInstructions;
        this.tools = new ArrayList<>(newTools);
        this.examples = new ArrayList<>(newExamples);
        this.evidence = new ArrayList<>(newEvidence);
    }

    /**
     * Counts a change.
     *
     * @param newSource the source after the change
     * @param now       the change's time
     */
    public void changed(String newSource, Instant now) {
        this.source = newSource;
        this.version++;
        this.updatedAt = now;
    }

    /**
     * @param vector the skill's vector (unit length), or {@code null} when its text could not be embedded
     * @param model  the model that produced it
     */
    public void embed(float[] vector, String model) {
        this.embedding = vector;
        this.embeddingModel = vector == null ? null : model;
    }

    public Long getId() {
        return id;
    }

    public String getSkillId() {
        return skillId;
    }

    public String getTenantId() {
        return tenantId;
    }

    public String getAgentId() {
        return agentId;
    }

    public String getName() {
        return name;
    }

    public String getDescription() {
        return description;
    }

    public String getInstructions() {
        return instructions;
    }

    public List<String> getTools() {
        return tools;
    }

    public List<String> getExamples() {
        return examples;
    }

    public String getSource() {
        return source;
    }

    public List<String> getEvidence() {
        return evidence;
    }

    public long getVersion() {
        return version;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }

    public float[] getEmbedding() {
        return embedding;
    }

    public String getEmbeddingModel() {
        return embeddingModel;
    }
}
