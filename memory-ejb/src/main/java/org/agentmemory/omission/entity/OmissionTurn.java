package org.agentmemory.omission.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

import org.agentmemory.conversation.entity.Conversation;

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

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "conversation_id", nullable = false)
    private Conversation conversation;

    @Column(name = "turn_id", nullable = false, length = 512)
    private String turnId;

    @Column(name = "content_id", nullable = false, length = 32)
    private String contentId;

    @Column(name = "ordinal", nullable = false)
    private int ordinal;

    protected OmissionTurn() {
    }

    public OmissionTurn(Conversation conversation, String turnId, String contentId, int ordinal) {
        this.conversation = conversation;
        this.tenantId = conversation.getTenantId();
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
