package org.agentmemory.episodic.entity;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.platform.json.JsonObjectConverter;
import org.agentmemory.platform.json.JsonStringListConverter;
import org.agentmemory.platform.json.UtcInstantConverter;
import org.agentmemory.platform.search.EnglishAnalysisConfigurer;
import org.agentmemory.platform.search.VectorBytesConverter;
import org.hibernate.search.engine.backend.types.Projectable;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.FullTextField;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.GenericField;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.Indexed;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.KeywordField;

/**
 * One stored episode (spec §10.1, §10.7). The row is the truth; the search index ({@value #INDEX}) is
 * derived from it: full-text fields over situation, action and lesson (English analysis), exact keyword
 * fields for every namespace field, outcome and category, and the stored embedding as a 384-dimension cosine
 * vector field. Because the embedding is stored here, reindexing needs no model.
 */
@Entity
@jakarta.persistence.EntityListeners(org.agentmemory.platform.search.IndexWritesListener.class)
@Table(name = "episode")
@Indexed(index = Episode.INDEX)
public class Episode {

    /** Name of the search index. */
    public static final String INDEX = "episode";
    /** Dimension of the embedding field. */
    public static final int DIMENSION = 384;

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "episode_seq")
    @SequenceGenerator(name = "episode_seq", sequenceName = "episode_seq", allocationSize = 50)
    private Long id;

    @KeywordField(projectable = Projectable.YES)
    @Column(name = "episode_id", nullable = false, length = 36)
    private String episodeId;

    @KeywordField
    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @KeywordField
    @Column(name = "agent_id", nullable = false, length = 512)
    private String agentId;

    @KeywordField
    @Column(name = "user_id", length = 512)
    private String userId;

    @KeywordField
    @Column(name = "session_id", length = 512)
    private String sessionId;

    @KeywordField
    @Column(name = "room_id", length = 512)
    private String roomId;

    @KeywordField
    @Column(name = "crew_id", length = 512)
    private String crewId;

    @GenericField
    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @GenericField
    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "expires_at")
    private Instant expiresAt;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "situation", nullable = false)
    private String situation;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "action_taken", nullable = false)
    private String actionTaken;

    @KeywordField
    @Column(name = "outcome", nullable = false, length = 16)
    private String outcome;

    @Column(name = "outcome_details")
    private String outcomeDetails;

    @Column(name = "error_type", length = 128)
    private String errorType;

    @Column(name = "error_message")
    private String errorMessage;

    @Column(name = "reflection")
    private String reflection;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "lesson_learned")
    private String lessonLearned;

    @Column(name = "suggested_action")
    private String suggestedAction;

    @Column(name = "lesson_source", length = 16)
    private String lessonSource;

    @KeywordField
    @Column(name = "category", nullable = false, length = 32)
    private String category;

    @GenericField
    @Column(name = "importance", nullable = false)
    private int importance;

    @GenericField
    @Column(name = "is_failure", nullable = false)
    private boolean failure;

    @Convert(converter = JsonStringListConverter.class)
    @Column(name = "related_tools", nullable = false)
    private List<String> relatedTools = new ArrayList<>();

    @Convert(converter = JsonStringListConverter.class)
    @Column(name = "related_entities", nullable = false)
    private List<String> relatedEntities = new ArrayList<>();

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "metadata", nullable = false)
    private Map<String, Object> metadata = new LinkedHashMap<>();

    @Column(name = "content_key", nullable = false, length = 64)
    private String contentKey;

    // Indexed as a vector field by EpisodeVectorField (the similarity depends on the backend).
    @Convert(converter = VectorBytesConverter.class)
    @Column(name = "embedding")
    private float[] embedding;

    /**
     * Indexed so the vector leg compares only vectors of the configured model; projectable so that the index can be
     * compared with the table after a crash ({@code IndexReconciliationBean}).
     */
    @KeywordField(projectable = org.hibernate.search.engine.backend.types.Projectable.YES)
    @Column(name = "embedding_model", length = 64)
    private String embeddingModel;

    /**
     * The brain page the dream cycle consolidated this episode into (the metadata key {@code consolidated_into} as a
     * column, spec §12.2 step 8), or {@code null} while it waits; not indexed.
     */
    @Column(name = "consolidated_into", length = 64)
    private String consolidatedInto;

    /** For JPA. */
    protected Episode() {}

    /**
     * @param episodeId  the public UUID
     * @param tenantId   the tenant
     * @param agentId    the agent
     * @param contentKey the content hash of the namespace and content (deduplication)
     */
    public Episode(String episodeId, String tenantId, String agentId, String contentKey) {
        this.episodeId = episodeId;
        this.tenantId = tenantId;
        this.agentId = agentId;
        this.contentKey = contentKey;
    }

    /** @return the database id */
    public Long getId() {
        return id;
    }

    /** @return the public UUID */
    public String getEpisodeId() {
        return episodeId;
    }

    /** @return the tenant */
    public String getTenantId() {
        return tenantId;
    }

    /** @return the agent */
    public String getAgentId() {
        return agentId;
    }

    /** @return the user or {@code null} */
    public String getUserId() {
        return userId;
    }

    /** @return the session or {@code null} */
    public String getSessionId() {
        return sessionId;
    }

    /** @return the room or {@code null} */
    public String getRoomId() {
        return roomId;
    }

    /** @return the crew or {@code null} */
    public String getCrewId() {
        return crewId;
    }

    /**
     * @param user    the user or {@code null}
     * @param session the session or {@code null}
     * @param room    the room or {@code null}
     * @param crew    the crew or {@code null}
     */
    public void setScope(String user, String session, String room, String crew) {
        this.userId = user;
        this.sessionId = session;
        this.roomId = room;
        this.crewId = crew;
    }

    /** @return when recorded */
    public Instant getCreatedAt() {
        return createdAt;
    }

    /** @return when last changed */
    public Instant getUpdatedAt() {
        return updatedAt;
    }

    /** @return when it expires, or {@code null} */
    public Instant getExpiresAt() {
        return expiresAt;
    }

    /**
     * @param created when recorded
     * @param updated when last changed
     * @param expires when it expires, or {@code null}
     */
    public void setTimes(Instant created, Instant updated, Instant expires) {
        this.createdAt = created;
        this.updatedAt = updated;
        this.expiresAt = expires;
    }

    /** @param updated when last changed */
    public void touch(Instant updated) {
        if (updatedAt == null || updated.isAfter(updatedAt)) {
            this.updatedAt = updated;
        }
    }

    /** @return the situation */
    public String getSituation() {
        return situation;
    }

    /** @return the action */
    public String getActionTaken() {
        return actionTaken;
    }

    /** @return the outcome's value, e.g. {@code failure} */
    public String getOutcome() {
        return outcome;
    }

    /** @return outcome details or {@code null} */
    public String getOutcomeDetails() {
        return outcomeDetails;
    }

    /** @return the error type or {@code null} */
    public String getErrorType() {
        return errorType;
    }

    /** @return the error message or {@code null} */
    public String getErrorMessage() {
        return errorMessage;
    }

    /**
     * @param situation      the situation
     * @param actionTaken    the action
     * @param outcome        the outcome's value
     * @param outcomeDetails details or {@code null}
     * @param errorType      error type or {@code null}
     * @param errorMessage   error message or {@code null}
     */
    public void setContent(
            String situation,
            String actionTaken,
            String outcome,
            String outcomeDetails,
            String errorType,
            String errorMessage) {
        this.situation = situation;
        this.actionTaken = actionTaken;
        this.outcome = outcome;
        this.outcomeDetails = outcomeDetails;
        this.errorType = errorType;
        this.errorMessage = errorMessage;
    }

    /** @return the reflection or {@code null} */
    public String getReflection() {
        return reflection;
    }

    /** @return the lesson or {@code null} */
    public String getLessonLearned() {
        return lessonLearned;
    }

    /** @return the suggestion or {@code null} */
    public String getSuggestedAction() {
        return suggestedAction;
    }

    /** @return the lesson source's value or {@code null} */
    public String getLessonSource() {
        return lessonSource;
    }

    /**
     * @param reflection      the reflection or {@code null}
     * @param lessonLearned   the lesson or {@code null}
     * @param suggestedAction the suggestion or {@code null}
     * @param lessonSource    the source's value or {@code null}
     */
    public void setReflection(String reflection, String lessonLearned, String suggestedAction, String lessonSource) {
        this.reflection = reflection;
        this.lessonLearned = lessonLearned;
        this.suggestedAction = suggestedAction;
        this.lessonSource = lessonSource;
    }

    /** @return the category's value */
    public String getCategory() {
        return category;
    }

    /** @return 1..10 */
    public int getImportance() {
        return importance;
    }

    /** @return whether a failure */
    public boolean isFailure() {
        return failure;
    }

    /**
     * @param category   the category's value
     * @param importance 1..10
     * @param failure    whether a failure
     */
    public void setClassification(String category, int importance, boolean failure) {
        this.category = category;
        this.importance = importance;
        this.failure = failure;
    }

    /** @return related tools */
    public List<String> getRelatedTools() {
        return relatedTools;
    }

    /** @return related entities */
    public List<String> getRelatedEntities() {
        return relatedEntities;
    }

    /**
     * @param tools    related tools
     * @param entities related entities
     */
    public void setRelated(List<String> tools, List<String> entities) {
        this.relatedTools = new ArrayList<>(tools);
        this.relatedEntities = new ArrayList<>(entities);
    }

    /** @return the metadata */
    public Map<String, Object> getMetadata() {
        return metadata;
    }

    /** @param metadata the new metadata (copied, so the change is detected) */
    public void setMetadata(Map<String, Object> metadata) {
        this.metadata = new LinkedHashMap<>(metadata);
        Object into = metadata.get(org.agentmemory.api.episodic.Episode.CONSOLIDATED_INTO);
        String page = into == null ? null : String.valueOf(into);
        this.consolidatedInto = page == null || page.isBlank() ? null : page.substring(0, Math.min(64, page.length()));
    }

    /** @return the brain page this episode was consolidated into, or {@code null} */
    public String getConsolidatedInto() {
        return consolidatedInto;
    }

    /** @return the content hash */
    public String getContentKey() {
        return contentKey;
    }

    /** @return the embedding or {@code null} */
    public float[] getEmbedding() {
        return embedding;
    }

    /** @return the embedding model's name or {@code null} */
    public String getEmbeddingModel() {
        return embeddingModel;
    }

    /**
     * @param vector the embedding or {@code null}
     * @param model  its model's name or {@code null}
     */
    public void setEmbedding(float[] vector, String model) {
        this.embedding = vector;
        this.embeddingModel = model;
    }
}
