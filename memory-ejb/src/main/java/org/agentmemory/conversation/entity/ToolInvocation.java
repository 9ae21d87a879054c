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
import java.util.LinkedHashMap;
import java.util.Map;
import org.agentmemory.platform.json.JsonStringMapConverter;

/**
 * One tool invocation of a stored turn (spec §1.2), at its position {@code ordinal} (0-based call order).
 */
@Entity
// Written once, never updated: Hibernate skips dirty checking and snapshots (EclipseLink ignores this).
@org.hibernate.annotations.Immutable
@Table(name = "tool_invocation")
public class ToolInvocation {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "tool_invocation_seq")
    @SequenceGenerator(name = "tool_invocation_seq", sequenceName = "tool_invocation_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "turn_pk", nullable = false)
    private Turn turn;

    @Column(name = "ordinal", nullable = false)
    private int ordinal;

    @Column(name = "tool_name", nullable = false, length = 1024)
    private String toolName;

    /** Canonical JSON text of the input object. */
    @Column(name = "input", nullable = false)
    private String input;

    @Column(name = "output")
    private String output;

    @Column(name = "status", nullable = false, length = 16)
    private String status;

    @Column(name = "error")
    private String error;

    @Column(name = "elapsed_ms")
    private Long elapsedMs;

    @Column(name = "output_chars")
    private Integer outputChars;

    @Convert(converter = JsonStringMapConverter.class)
    @Column(name = "omitted", nullable = false)
    private Map<String, String> omitted = new LinkedHashMap<>();

    @Column(name = "wm_key", length = 1024)
    private String wmKey;

    protected ToolInvocation() {}

    public ToolInvocation(Turn turn, int ordinal) {
        this.turn = turn;
        this.tenantId = turn.getTenantId();
        this.ordinal = ordinal;
    }

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

    public Turn getTurn() {
        return turn;
    }

    public int getOrdinal() {
        return ordinal;
    }

    public String getToolName() {
        return toolName;
    }

    public void setToolName(String toolName) {
        this.toolName = toolName;
    }

    public String getInput() {
        return input;
    }

    public void setInput(String input) {
        this.input = input;
    }

    public String getOutput() {
        return output;
    }

    public void setOutput(String output) {
        this.output = output;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public String getError() {
        return error;
    }

    public void setError(String error) {
        this.error = error;
    }

    public Long getElapsedMs() {
        return elapsedMs;
    }

    public void setElapsedMs(Long elapsedMs) {
        this.elapsedMs = elapsedMs;
    }

    public Integer getOutputChars() {
        return outputChars;
    }

    public void setOutputChars(Integer outputChars) {
        this.outputChars = outputChars;
    }

    public Map<String, String> getOmitted() {
        return omitted;
    }

    public void setOmitted(Map<String, String> omitted) {
        this.omitted = new LinkedHashMap<>(omitted);
    }

    public String getWmKey() {
        return wmKey;
    }

    public void setWmKey(String wmKey) {
        this.wmKey = wmKey;
    }
}
