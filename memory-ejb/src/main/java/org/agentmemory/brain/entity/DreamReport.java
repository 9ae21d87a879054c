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
import java.util.List;
import org.agentmemory.platform.json.JsonStringListConverter;
import org.agentmemory.platform.json.UtcInstantConverter;

/**
 * One dream cycle's report (spec §12.1 {@code DreamCycleReport}), written when the cycle ends, aborted or not, in the
 * transaction that releases the agent's lease.
 */
@Entity
@Table(name = "dream_report")
public class DreamReport {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "dream_report_seq")
    @SequenceGenerator(name = "dream_report_seq", sequenceName = "dream_report_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "agent_id", nullable = false, length = 512)
    private String agentId;

    @Column(name = "trigger_kind", nullable = false, length = 16)
    private String trigger;

    @Column(name = "server_id", nullable = false, length = 200)
    private String serverId;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "started_at", nullable = false)
    private Instant startedAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "finished_at", nullable = false)
    private Instant finishedAt;

    @Column(name = "episodes_collected", nullable = false)
    private int episodesCollected;

    @Column(name = "groups_formed", nullable = false)
    private int groupsFormed;

    @Column(name = "groups_distilled", nullable = false)
    private int groupsDistilled;

    @Column(name = "groups_by_model", nullable = false)
    private int groupsByModel;

    @Column(name = "groups_skipped", nullable = false)
    private int groupsSkipped;

    @Column(name = "groups_deferred", nullable = false)
    private int groupsDeferred;

    @Column(name = "episodes_consolidated", nullable = false)
    private int episodesConsolidated;

    @Convert(converter = JsonStringListConverter.class)
    @Column(name = "pages_created", nullable = false)
    private List<String> pagesCreated;

    @Convert(converter = JsonStringListConverter.class)
    @Column(name = "pages_merged", nullable = false)
    private List<String> pagesMerged;

    @Convert(converter = JsonStringListConverter.class)
    @Column(name = "pages_promoted", nullable = false)
    private List<String> pagesPromoted;

    @Column(name = "statements_added", nullable = false)
    private int statementsAdded;

    @Column(name = "statements_superseded", nullable = false)
    private int statementsSuperseded;

    @Column(name = "aborted", nullable = false)
    private boolean aborted;

    @Column(name = "abort_reason")
    private String abortReason;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "watermark_before")
    private Instant watermarkBefore;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "watermark_after")
    private Instant watermarkAfter;

    protected DreamReport() {}

    /**
     * @param tenantId  the tenant
     * @param agentId   the agent
     * @param trigger   {@code timer} or {@code manual}
     * @param serverId  the server that ran it
     * @param outcome   what the cycle did
     */
    public DreamReport(
            String tenantId,
            String agentId,
            String trigger,
            String serverId,
            org.agentmemory.api.brain.DreamCycleReport outcome) {
        this.tenantId = tenantId;
        this.agentId = agentId;
        this.trigger = trigger;
        this.serverId = serverId;
        this.startedAt = outcome.startedAt();
        this.finishedAt = outcome.finishedAt();
        this.episodesCollected = outcome.episodesCollected();
        this.groupsFormed = outcome.groupsFormed();
        this.groupsDistilled = outcome.groupsDistilled();
        this.groupsByModel = outcome.groupsByModel();
        this.groupsSkipped = outcome.groupsSkipped();
        this.groupsDeferred = outcome.groupsDeferred();
        this.episodesConsolidated = outcome.episodesConsolidated();
        this.pagesCreated = List.copyOf(outcome.pagesCreated());
        this.pagesMerged = List.copyOf(outcome.pagesMerged());
        this.pagesPromoted = List.copyOf(outcome.pagesPromoted());
        this.statementsAdded = outcome.statementsAdded();
        this.statementsSuperseded = outcome.statementsSuperseded();
        this.aborted = outcome.aborted();
        this.abortReason = outcome.abortReason();
        this.watermarkBefore = outcome.watermarkBefore();
        this.watermarkAfter = outcome.watermarkAfter();
    }

    /** @return the report as the API shows it */
    public org.agentmemory.api.brain.DreamCycleReport toRecord() {
        return new org.agentmemory.api.brain.DreamCycleReport(
                id,
                agentId,
                trigger,
                serverId,
                startedAt,
                finishedAt,
                episodesCollected,
                groupsFormed,
                groupsDistilled,
                groupsByModel,
                groupsSkipped,
                groupsDeferred,
                episodesConsolidated,
                pagesCreated,
                pagesMerged,
                pagesPromoted,
                statementsAdded,
                statementsSuperseded,
                aborted,
                abortReason,
                watermarkBefore,
                watermarkAfter);
    }

    public Long getId() {
        return id;
    }
}
