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
import org.agentmemory.platform.json.UtcInstantConverter;

/**
 * The header of one session's working memory (issue 35 item 1): one row per (tenant, agent, session). Every write of
 * the session first locks this row ({@code SELECT … FOR UPDATE}), so writes of one session run one after the other on
 * every server (decision 0015). It holds the context stack ({@code contextStack}, canonical JSON, bottom first) and the
 * position the next item of the session gets ({@code nextSeq}), which orders the short-term tier for FIFO eviction
 * whatever the servers' clocks say.
 */
@Entity
@Table(name = "working_session")
public class WorkingSession {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "working_session_seq")
    @SequenceGenerator(name = "working_session_seq", sequenceName = "working_session_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "agent_id", nullable = false, length = 512)
    private String agentId;

    @Column(name = "session_id", nullable = false, length = 512)
    private String sessionId;

    @Column(name = "context_stack", nullable = false)
    private String contextStack;

    @Column(name = "next_seq", nullable = false)
    private long nextSeq;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected WorkingSession() {}

    /**
     * An empty session: no frames, the first item at position 1.
     *
     * @param tenantId  the tenant
     * @param agentId   the agent
     * @param sessionId the session
     * @param now       when it is created
     */
    public WorkingSession(String tenantId, String agentId, String sessionId, Instant now) {
        this.tenantId = tenantId;
        this.agentId = agentId;
        this.sessionId = sessionId;
        this.contextStack = "[]";
        this.nextSeq = 1;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /**
     * @param now when the position is taken
     * @return the position of the session's next item; the following call returns the next one
     */
    public long takeSeq(Instant now) {
        this.updatedAt = now;
        return nextSeq++;
    }

    /**
     * @param stack the stored stack (canonical JSON array, bottom first)
     * @param now   when it changes
     */
    public void setContextStack(String stack, Instant now) {
        this.contextStack = stack;
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

    public String getContextStack() {
        return contextStack;
    }

    public long getNextSeq() {
        return nextSeq;
    }
}
