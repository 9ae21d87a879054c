package org.agentmemory.working.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.agentmemory.platform.json.JsonObjectConverter;
import org.agentmemory.platform.json.UtcInstantConverter;
import org.agentmemory.platform.search.EnglishAnalysisConfigurer;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.FullTextField;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.Indexed;
import org.hibernate.search.mapper.pojo.mapping.definition.annotation.KeywordField;

/**
 * One working-memory item (issue 35 item 1, seed 003 {@code MemoryItem}) of a (tenant, agent, session). The row is
 * the truth; the search index ({@value #INDEX}) holds the content for full-text search, and the tenant, agent, session
 * and tier as filters. {@code seq} is the item's position in its session (from {@link WorkingSession#takeSeq}):
 * eviction takes the lowest short-term positions first. {@code tier} is {@code short_term} or {@code long_term};
 * {@code context} is the context frame on top of the stack when the item was stored (canonical JSON), or
 * {@code null}.
 */
@Entity
@jakarta.persistence.EntityListeners(org.agentmemory.platform.search.IndexWritesListener.class)
@Table(name = "working_item")
@Indexed(index = WorkingItem.INDEX)
public class WorkingItem {

    /** The search index of working-memory items. */
    public static final String INDEX = "working_item";

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "working_item_seq")
    @SequenceGenerator(name = "working_item_seq", sequenceName = "working_item_seq", allocationSize = 50)
    private Long id;

    @KeywordField
    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @KeywordField
    @Column(name = "agent_id", nullable = false, length = 512)
    private String agentId;

    @KeywordField
    @Column(name = "session_id", nullable = false, length = 512)
    private String sessionId;

    @Column(name = "seq", nullable = false)
    private long seq;

    @KeywordField
    @Column(name = "tier", nullable = false, length = 16)
    private String tier;

    @FullTextField(analyzer = EnglishAnalysisConfigurer.ENGLISH)
    @Column(name = "content", nullable = false)
    private String content;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "metadata", nullable = false)
    private Map<String, Object> metadata = new LinkedHashMap<>();

    @Column(name = "importance", nullable = false)
    private double importance;

    @Column(name = "access_count", nullable = false)
    private long accessCount;

    @Column(name = "context")
    private String context;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "last_accessed_at")
    private Instant lastAccessedAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "promoted_at")
    private Instant promotedAt;

    protected WorkingItem() {}

    /**
     * @param session    the session's header (its ids and the item's position)
     * @param seq        the item's position in the session
     * @param tier       {@code short_term} or {@code long_term}
     * @param content    the text
     * @param metadata   the caller's metadata, not {@code null}
     * @param importance 0–1
     * @param context    the stored context frame, or {@code null}
     * @param now        when it is stored
     */
    public WorkingItem(
            WorkingSession session,
            long seq,
            String tier,
            String content,
            Map<String, Object> metadata,
            double importance,
            String context,
            Instant now) {
        this.tenantId = session.getTenantId();
        this.agentId = session.getAgentId();
        this.sessionId = session.getSessionId();
        this.seq = seq;
        this.tier = tier;
        this.content = content;
        this.metadata = new LinkedHashMap<>(metadata);
        this.importance = importance;
        this.context = context;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /**
     * Counts a read by id.
     *
     * @param now when
     */
    public void accessed(Instant now) {
        this.accessCount++;
        this.lastAccessedAt = now;
        this.updatedAt = now;
    }

    /**
     * Moves the item to the long-term tier.
     *
     * @param longTerm the long-term tier's name
     * @param now      when
     */
    public void promote(String longTerm, Instant now) {
        this.tier = longTerm;
        this.promotedAt = now;
        this.updatedAt = now;
    }

    /**
     * Replaces what is given; {@code null} keeps the stored value.
     *
     * @param newContent    the text, or {@code null}
     * @param newMetadata   the metadata, or {@code null}
     * @param newImportance the importance, or {@code null}
     * @param now           when
     */
    public void change(String newContent, Map<String, Object> newMetadata, Double newImportance, Instant now) {
        if (newContent != null) {
            this.content = newContent;
        }
        if (newMetadata != null) {
            this.metadata = new LinkedHashMap<>(newMetadata);
        }
        if (newImportance != null) {
            this.importance = newImportance;
        }
        this.updatedAt = now;
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

    public String getSessionId() {
        return sessionId;
    }

    public long getSeq() {
        return seq;
    }

    public String getTier() {
        return tier;
    }

    public String getContent() {
        return content;
    }

    public Map<String, Object> getMetadata() {
        return metadata;
    }

    public double getImportance() {
        return importance;
    }

    public long getAccessCount() {
        return accessCount;
    }

    public String getContext() {
        return context;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }

    public Instant getLastAccessedAt() {
        return lastAccessedAt;
    }

    public Instant getPromotedAt() {
        return promotedAt;
    }
}
