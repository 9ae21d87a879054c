package org.agentmemory.conversation.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.agentmemory.platform.json.JsonObjectConverter;
import org.agentmemory.platform.json.UtcInstantConverter;

/**
 * One conversation history: the key (tenant, chatbot, user, session), shared metadata, and the counters
 * that sequence its turns. Writers that add turns lock this row, which serializes sequence assignment.
 */
@Entity
@Table(name = "conversation")
public class Conversation {

    /** The stored chatbot key of the default agent (the API uses {@code null}). */
    public static final String DEFAULT_CHATBOT_KEY = "";

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "conversation_seq")
    @SequenceGenerator(name = "conversation_seq", sequenceName = "conversation_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "chatbot_key", nullable = false, length = 512)
    private String chatbotKey;

    @Column(name = "user_id", nullable = false, length = 512)
    private String userId;

    @Column(name = "session_id", nullable = false, length = 512)
    private String sessionId;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "metadata", nullable = false)
    private Map<String, Object> metadata = new LinkedHashMap<>();

    @Column(name = "last_seq", nullable = false)
    private long lastSeq;

    @Column(name = "turn_count", nullable = false)
    private long turnCount;

    @Version
    @Column(name = "version", nullable = false)
    private long version;

    protected Conversation() {}

    public Conversation(
            String tenantId,
            String chatbotId,
            String userId,
            String sessionId,
            Map<String, Object> metadata,
            Instant now) {
        this.tenantId = tenantId;
        this.chatbotKey = toKey(chatbotId);
        this.userId = userId;
        this.sessionId = sessionId;
        this.metadata = metadata == null ? new LinkedHashMap<>() : new LinkedHashMap<>(metadata);
        this.createdAt = now;
        this.updatedAt = now;
    }

    /**
     * A conversation as read from its row in plain JDBC ({@code LockedConversations}), not managed by any persistence
     * context: changes to it are written by whoever read it, never by a flush.
     *
     * @param id         the row id
     * @param tenantId   the tenant
     * @param chatbotKey the stored chatbot key ({@value #DEFAULT_CHATBOT_KEY} for the default agent)
     * @param userId     the user
     * @param sessionId  the session
     * @param createdAt  creation time
     * @param updatedAt  last write time
     * @param metadata   the metadata as stored (kept as given, not copied)
     * @param lastSeq    the last sequence number handed out
     * @param turnCount  the number of turns stored
     * @param version    the optimistic-lock version
     * @return the detached conversation
     */
    public static Conversation restore(
            long id,
            String tenantId,
            String chatbotKey,
            String userId,
            String sessionId,
            Instant createdAt,
            Instant updatedAt,
            Map<String, Object> metadata,
            long lastSeq,
            long turnCount,
            long version) {
        Conversation c = new Conversation();
        c.id = id;
        c.tenantId = tenantId;
        c.chatbotKey = chatbotKey;
        c.userId = userId;
        c.sessionId = sessionId;
        c.createdAt = createdAt;
        c.updatedAt = updatedAt;
        c.metadata = metadata;
        c.lastSeq = lastSeq;
        c.turnCount = turnCount;
        c.version = version;
        return c;
    }

    /** @return the stored key of a chatbot id ({@code null} → {@value #DEFAULT_CHATBOT_KEY}) */
    public static String toKey(String chatbotId) {
        return chatbotId == null ? DEFAULT_CHATBOT_KEY : chatbotId;
    }

    /**
     * Reserves the next sequence number. Call only while holding the row lock.
     *
     * @param now the write time
     * @return the sequence for the new turn (1-based)
     */
    public long nextSequence(Instant now) {
        lastSeq++;
        turnCount++;
        touch(now);
        return lastSeq;
    }

    /** Records that all turns were removed; sequence numbers keep growing so order stays monotonic. */
    public void cleared(Instant now) {
        turnCount = 0;
        touch(now);
    }

    public void touch(Instant now) {
        if (updatedAt == null || now.isAfter(updatedAt)) {
            updatedAt = now;
        }
    }

    public Long getId() {
        return id;
    }

    public String getTenantId() {
        return tenantId;
    }

    /** @return the chatbot id, or {@code null} for the default agent */
    public String getChatbotId() {
        return DEFAULT_CHATBOT_KEY.equals(chatbotKey) ? null : chatbotKey;
    }

    public String getUserId() {
        return userId;
    }

    public String getSessionId() {
        return sessionId;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }

    public Map<String, Object> getMetadata() {
        return metadata;
    }

    /** Replaces the metadata (a new map, so the change is always detected as dirty). */
    public void setMetadata(Map<String, Object> metadata, Instant now) {
        this.metadata = new LinkedHashMap<>(metadata);
        touch(now);
    }

    public long getLastSeq() {
        return lastSeq;
    }

    public long getTurnCount() {
        return turnCount;
    }

    public long getVersion() {
        return version;
    }
}
