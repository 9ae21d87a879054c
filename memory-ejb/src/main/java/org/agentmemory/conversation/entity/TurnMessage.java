package org.agentmemory.conversation.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import org.agentmemory.platform.json.UtcInstantConverter;
import org.agentmemory.platform.search.EnglishAnalysisConfigurer;
import org.agentmemory.platform.search.VectorBytesConverter;
import org.agentmemory.platform.search.VectorFields;
import org.hibernate.search.engine.backend.types.Projectable;
import org.hibernate.search.engine.backend.types.Searchable;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.FullTextField;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.GenericField;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.Indexed;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.KeywordField;

/**
 * One message of a stored turn, searchable on its own: the user message or the assistant response (role
 * {@value #USER} or {@value #ASSISTANT}), with the turn's id, sequence and the message's external id (e.g.
 * a LoCoMo {@code dia_id}). Written in the same transaction as its turn and never updated; deleted with it.
 *
 * <p>Search mapping (index {@value #INDEX}): {@code searchText} full-text (English), the scope fields
 * (tenant, chatbot, user, session, conversation) as exact keywords, the stored embedding as a 384-dimension
 * cosine vector, and the fields a hit returns as projections, so a recall query never reads the database.
 */
@Entity
@jakarta.persistence.EntityListeners(org.agentmemory.platform.search.IndexWritesListener.class)
@Table(name = "turn_message")
@Indexed(index = TurnMessage.INDEX)
public class TurnMessage {

    /**
     * What the index holds as {@code embeddingModel} for a message still waiting for its vector (a value no model
     * name can take).
     */
    public static final String PENDING_IN_INDEX = VectorFields.PENDING;

    /** Embedding model recorded for messages that have no vector on purpose (blank, or the model refused it). */
    public static final String NO_VECTOR = "none";

    /** Name of the search index. */
    public static final String INDEX = "turn_message";
    /** Role of a user message. */
    public static final String USER = "user";
    /** Role of an assistant response. */
    public static final String ASSISTANT = "assistant";

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "turn_message_seq")
    @SequenceGenerator(name = "turn_message_seq", sequenceName = "turn_message_seq", allocationSize = 50)
    private Long id;

    @KeywordField
    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @GenericField(projectable = Projectable.YES)
    @Column(name = "conversation_id", nullable = false)
    private long conversationId;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "turn_pk", nullable = false)
    private Turn turn;

    @KeywordField(projectable = Projectable.YES)
    @Column(name = "turn_id", nullable = false, length = 512)
    private String turnId;

    @GenericField(projectable = Projectable.YES)
    @Column(name = "seq", nullable = false)
    private long seq;

    @KeywordField(projectable = Projectable.YES)
    @Column(name = "role", nullable = false, length = 16)
    private String role;

    @KeywordField(projectable = Projectable.YES)
    @Column(name = "external_id", length = 512)
    private String externalId;

    @KeywordField
    @Column(name = "chatbot_key", nullable = false, length = 512)
    private String chatbotKey;

    @KeywordField(projectable = Projectable.YES)
    @Column(name = "user_id", nullable = false, length = 512)
    private String userId;

    @KeywordField(projectable = Projectable.YES)
    @Column(name = "session_id", nullable = false, length = 512)
    private String sessionId;

    @KeywordField(projectable = Projectable.YES)
    @Column(name = "author", length = 512)
    private String author;

    // Projected only: a message can be longer than Lucene's largest term.
    @GenericField(projectable = Projectable.YES, searchable = Searchable.NO)
    @Column(name = "content", nullable = false)
    private String content;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "search_text", nullable = false)
    private String searchText;

    @GenericField(projectable = Projectable.YES)
    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "occurred_at", nullable = false)
    private Instant occurredAt;

    // Indexed as a vector field by TurnMessageVectorField (the similarity depends on the backend).
    @Convert(converter = VectorBytesConverter.class)
    @Column(name = "embedding")
    private float[] embedding;

    @KeywordField(indexNullAs = PENDING_IN_INDEX, projectable = Projectable.YES)
    @Column(name = "embedding_model", length = 64)
    private String embeddingModel;

    /** For JPA. */
    protected TurnMessage() {}

    /**
     * @param turn       the stored turn (persisted, with its conversation)
     * @param role       {@value #USER} or {@value #ASSISTANT}
     * @param externalId the message's external id, or {@code null}
     * @param author     who wrote it (e.g. a speaker's name), or {@code null}
     * @param content    the stored message text
     * @param searchText what is full-text indexed and embedded
     */
    public TurnMessage(Turn turn, String role, String externalId, String author, String content, String searchText) {
        this.turn = turn;
        this.tenantId = turn.getTenantId();
        this.conversationId = turn.getConversation().getId();
        this.turnId = turn.getTurnId();
        this.seq = turn.getSeq();
        this.role = role;
        this.externalId = externalId;
        this.chatbotKey = org.agentmemory.conversation.entity.Conversation.toKey(
                turn.getConversation().getChatbotId());
        this.userId = turn.getConversation().getUserId();
        this.sessionId = turn.getConversation().getSessionId();
        this.author = author;
        this.content = content;
        this.searchText = searchText;
        this.occurredAt = turn.getOccurredAt();
    }

    /** @return the database id */
    public Long getId() {
        return id;
    }

    /**
     * Gives the id of an instance inserted in bulk, from the entity's own id generator ({@link BulkIds}).
     *
     * @param id the generated id
     * @throws IllegalStateException if the instance already has an id
     */
    public void assignId(long id) {
        this.id = BulkIds.assign(this.id, id);
    }

    /** @return the tenant */
    public String getTenantId() {
        return tenantId;
    }

    /** @return the conversation id */
    public long getConversationId() {
        return conversationId;
    }

    /** @return the stored turn */
    public Turn getTurn() {
        return turn;
    }

    /** @return the turn id */
    public String getTurnId() {
        return turnId;
    }

    /** @return the turn's sequence */
    public long getSeq() {
        return seq;
    }

    /** @return the role */
    public String getRole() {
        return role;
    }

    /** @return the external id or {@code null} */
    public String getExternalId() {
        return externalId;
    }

    /** @return the chatbot key ({@code ""} for the default agent) */
    public String getChatbotKey() {
        return chatbotKey;
    }

    /** @return the conversation's user */
    public String getUserId() {
        return userId;
    }

    /** @return the conversation's session */
    public String getSessionId() {
        return sessionId;
    }

    /** @return the author or {@code null} */
    public String getAuthor() {
        return author;
    }

    /** @return the message text */
    public String getContent() {
        return content;
    }

    /** @return the indexed text */
    public String getSearchText() {
        return searchText;
    }

    /** @return when the turn happened */
    public Instant getOccurredAt() {
        return occurredAt;
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
