package org.agentmemory.omission.entity;

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

/**
 * Content kept out of prompts (spec §7): stored once per conversation and content id, the exact text.
 */
@Entity
@Table(name = "omission")
public class Omission {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "omission_seq")
    @SequenceGenerator(name = "omission_seq", sequenceName = "omission_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    /** The conversation's id: omissions are scoped by conversation (a foreign key in the schema). */
    @Column(name = "conversation_id", nullable = false)
    private long conversationId;

    @Column(name = "content_id", nullable = false, length = 32)
    private String contentId;

    @Column(name = "content", nullable = false)
    private String content;

    @Column(name = "content_chars", nullable = false)
    private int contentChars;

    @Column(name = "tool_name", length = 1024)
    private String toolName;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "expires_at")
    private Instant expiresAt;

    protected Omission() {}

    public Omission(
            String tenantId,
            long conversationId,
            String contentId,
            String content,
            int contentChars,
            String toolName,
            Instant createdAt,
            Instant expiresAt) {
        this.conversationId = conversationId;
        this.tenantId = tenantId;
        this.contentId = contentId;
        this.content = content;
        this.contentChars = contentChars;
        this.toolName = toolName;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
    }

    public Long getId() {
        return id;
    }

    public String getContentId() {
        return contentId;
    }

    public String getContent() {
        return content;
    }

    public int getContentChars() {
        return contentChars;
    }

    public String getToolName() {
        return toolName;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getExpiresAt() {
        return expiresAt;
    }

    /** Extends the life of content that was put again (spec §7.3: the TTL is re-applied on every put). */
    public void setExpiresAt(Instant expiresAt) {
        this.expiresAt = expiresAt;
    }

    /** @return whether it has expired at {@code now} */
    public boolean expiredAt(Instant now) {
        return expiresAt != null && !expiresAt.isAfter(now);
    }
}
