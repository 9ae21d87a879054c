package org.agentmemory.answer.entity;

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

/** An agent's question and answer for one turn (answer memory). */
@Entity
@Table(name = "answer")
public class Answer {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "answer_seq")
    @SequenceGenerator(name = "answer_seq", sequenceName = "answer_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "agent_id", nullable = false, length = 512)
    private String agentId;

    @Column(name = "turn_id", nullable = false, length = 512)
    private String turnId;

    @Column(name = "question", nullable = false)
    private String question;

    /** Canonical JSON text of the answer value. */
    @Column(name = "answer", nullable = false)
    private String answer;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "stored_at", nullable = false)
    private Instant storedAt;

    protected Answer() {}

    public Answer(String tenantId, String agentId, String turnId) {
        this.tenantId = tenantId;
        this.agentId = agentId;
        this.turnId = turnId;
    }

    /** Replaces the stored interaction. */
    public void store(String question, String answerJson, Instant now) {
        this.question = question;
        this.answer = answerJson;
        this.storedAt = now;
    }

    public String getAgentId() {
        return agentId;
    }

    public String getTurnId() {
        return turnId;
    }

    public String getQuestion() {
        return question;
    }

    public String getAnswer() {
        return answer;
    }

    public Instant getStoredAt() {
        return storedAt;
    }
}
