package org.agentmemory.brain.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import org.agentmemory.platform.json.UtcInstantConverter;
import org.agentmemory.platform.search.EnglishAnalysisConfigurer;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.FullTextField;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.Indexed;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.KeywordField;

/**
 * A brain page (issue 33 item 1): one row per (tenant, brain, page id). The row is the truth; the search index
 * ({@value #INDEX}) holds title, summary and the current statements' body for full-text search, with the tenant and
 * brain as filters. {@link #getStatements()} keeps every statement with its evidence and history, as JSON
 * ({@code brain.control.StatementsJson}).
 */
@Entity
@jakarta.persistence.EntityListeners(org.agentmemory.platform.search.IndexWritesListener.class)
@Table(name = "brain_page")
@Indexed(index = BrainPage.INDEX)
public class BrainPage {

    /** The search index of brain pages. */
    public static final String INDEX = "brain_page";

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "brain_page_seq")
    @SequenceGenerator(name = "brain_page_seq", sequenceName = "brain_page_seq", allocationSize = 50)
    private Long id;

    @KeywordField
    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @KeywordField
    @Column(name = "brain_id", nullable = false, length = 600)
    private String brainId;

    @KeywordField
    @Column(name = "page_id", nullable = false, length = 16)
    private String pageId;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "title", nullable = false, length = 400)
    private String title;

    @KeywordField
    @Column(name = "category", nullable = false, length = 16)
    private String category;

    @Column(name = "confidence", nullable = false)
    private double confidence;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "summary", nullable = false)
    private String summary;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "body", nullable = false)
    private String body;

    @Column(name = "statements", nullable = false)
    private String statements;

    @Column(name = "token_count", nullable = false)
    private int tokenCount;

    @Column(name = "asserted_by", nullable = false, length = 600)
    private String assertedBy;

    @Column(name = "reinforcement_count", nullable = false)
    private int reinforcementCount;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    /** Distinct dream cycles that reinforced the page (spec §12.2 step 7). */
    @Column(name = "dream_cycles", nullable = false)
    private int dreamCycles;

    /** The last dream cycle (its report id) that reinforced the page, so a cycle counts once. */
    @Column(name = "last_dream_cycle")
    private Long lastDreamCycle;

    /** When the page was first copied to the organisation brain (spec §12.2 step 9), or {@code null}. */
    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "promoted_at")
    private Instant promotedAt;

    // Indexed as a vector field by BrainPageVectorField (the similarity depends on the backend).
    @Convert(converter = org.agentmemory.platform.search.VectorBytesConverter.class)
    @Column(name = "embedding")
    private float[] embedding;

    /**
     * The model of {@link #embedding}; indexed so the vector leg compares only vectors of the configured model,
     * projectable so that the index can be compared with the table after a crash ({@code IndexReconciliationBean}).
     */
    @KeywordField(projectable = org.hibernate.search.engine.backend.types.Projectable.YES)
    @Column(name = "embedding_model", length = 64)
    private String embeddingModel;

    protected BrainPage() {}

    /**
     * A new page; {@link #write} fills it.
     *
     * @param tenantId   the tenant
     * @param brainId    {@code agent:<agentId>} or {@code org}
     * @param pageId     the page id
     * @param assertedBy who writes it first
     * @param now        the time of the first write
     */
    public BrainPage(String tenantId, String brainId, String pageId, String assertedBy, Instant now) {
        this.tenantId = tenantId;
        this.brainId = brainId;
        this.pageId = pageId;
        this.assertedBy = assertedBy;
        this.createdAt = now;
        this.updatedAt = now;
        this.statements = "[]";
        this.body = "";
        this.summary = "";
    }

    /**
     * Sets what a write produced.
     *
     * @param newTitle      the title
     * @param newCategory   the category
     * @param newConfidence the confidence
     * @param newSummary    the summary
     * @param newBody       the current statements rendered
     * @param newStatements every statement, as JSON
     * @param tokens        tokens of the body
     * @param reinforced    whether the write reinforced the page
     * @param now           the write's time
     */
    public void write(
            String newTitle,
            String newCategory,
            double newConfidence,
            String newSummary,
            String newBody,
            String newStatements,
            int tokens,
            boolean reinforced,
            Instant now) {
        this.title = newTitle;
        this.category = newCategory;
        this.confidence = newConfidence;
        this.summary = newSummary;
        this.body = newBody;
        this.statements = newStatements;
        this.tokenCount = tokens;
        if (reinforced) {
            this.reinforcementCount++;
        }
        this.updatedAt = now;
    }

    public Long getId() {
        return id;
    }

    public String getTenantId() {
        return tenantId;
    }

    public String getBrainId() {
        return brainId;
    }

    public String getPageId() {
        return pageId;
    }

    public String getTitle() {
        return title;
    }

    public String getCategory() {
        return category;
    }

    public double getConfidence() {
        return confidence;
    }

    public String getSummary() {
        return summary;
    }

    public String getBody() {
        return body;
    }

    public String getStatements() {
        return statements;
    }

    public int getTokenCount() {
        return tokenCount;
    }

    public String getAssertedBy() {
        return assertedBy;
    }

    public int getReinforcementCount() {
        return reinforcementCount;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }

    /**
     * @param vector the page's vector (unit length), or {@code null} when the text could not be embedded
     * @param model  the model that produced it
     */
    public void embed(float[] vector, String model) {
        this.embedding = vector;
        this.embeddingModel = vector == null ? null : model;
    }

    /**
     * Counts a dream cycle's reinforcement once.
     *
     * @param cycle the cycle's report id
     * @return whether this cycle had not counted yet
     */
    public boolean reinforceInCycle(long cycle) {
        if (lastDreamCycle != null && lastDreamCycle == cycle) {
            return false;
        }
        lastDreamCycle = cycle;
        dreamCycles++;
        reinforcementCount++;
        return true;
    }

    /** @param now when the page was copied to the organisation brain */
    public void promoted(Instant now) {
        if (promotedAt == null) {
            promotedAt = now;
        }
    }

    public int getDreamCycles() {
        return dreamCycles;
    }

    public Instant getPromotedAt() {
        return promotedAt;
    }

    public float[] getEmbedding() {
        return embedding;
    }

    public String getEmbeddingModel() {
        return embeddingModel;
    }
}
