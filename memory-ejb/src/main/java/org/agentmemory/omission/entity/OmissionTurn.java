package org.agentmemory.omission.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/**
 * The per-turn omission index (spec §7.2 {@code list_by_turn}): which content ids a turn produced, in
 * insertion order ({@code ordinal}), at most once each.
 */
@Entity
// Written once, never updated: Hibernate skips dirty checking and snapshots (EclipseLink ignores this).
@org.hibernate.annotations.Immutable
@Table(name = "omission_turn")
public class OmissionTurn {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "omission_turn_seq")
    @SequenceGenerator(name = "omission_turn_seq", sequenceName = "omission_turn_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    /** The conversation's id: omissions are scoped by conversation (a foreign key in the schema). */
    @Column(name = "conversation_id", nullable = false)
    private long conversationId;

    @Column(name = "turn_id", nullable = false, length = 512)
    private String turnId;

    @Column(name = "content_id", nullable = false, length = 32)
    private String contentId;

    @Column(name = "ordinal", nullable = false)
    private int ordinal;

    protected OmissionTurn() {}

    public OmissionTurn(String tenantId, long conversationId, String turnId, String contentId, int ordinal) {
        this.conversationId = conversationId;
        this.tenantId = tenantId;
        this.turnId = turnId;
        this.contentId = contentId;
        this.ordinal = ordinal;
    }

    public String getTurnId() {
        return turnId;
    }

    public String getContentId() {
        return contentId;
    }

    public int getOrdinal() {
        return ordinal;
    }
}
