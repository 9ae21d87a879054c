package org.agentmemory.conversation.entity;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.platform.json.JsonObjectConverter;
import org.agentmemory.platform.json.JsonStringListConverter;
import org.agentmemory.platform.json.UtcInstantConverter;

/**
 * One stored turn (spec §1.1). Immutable once written except through clear/delete of its conversation.
 */
@Entity
// Written once, never updated: Hibernate skips dirty checking and snapshots (EclipseLink ignores this).
@org.hibernate.annotations.Immutable
@Table(name = "turn")
public class Turn {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "turn_seq")
    @SequenceGenerator(name = "turn_seq", sequenceName = "turn_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "conversation_id", nullable = false)
    private Conversation conversation;

    @Column(name = "seq", nullable = false)
    private long seq;

    @Column(name = "turn_id", nullable = false, length = 512)
    private String turnId;

    @Column(name = "user_id", nullable = false, length = 512)
    private String userId;

    @Column(name = "chatbot_id", length = 512)
    private String chatbotId;

    @Column(name = "user_message", nullable = false)
    private String userMessage;

    @Column(name = "assistant_response", nullable = false)
    private String assistantResponse;

    @Column(name = "context_used")
    private String contextUsed;

    @Convert(converter = JsonStringListConverter.class)
    @Column(name = "tools_used", nullable = false)
    private List<String> toolsUsed = new ArrayList<>();

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "occurred_at", nullable = false)
    private Instant occurredAt;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "metadata", nullable = false)
    private Map<String, Object> metadata = new LinkedHashMap<>();

    @Column(name = "error")
    private String error;

    @Column(name = "tokens_user", nullable = false)
    private int tokensUser;

    @Column(name = "tokens_assistant", nullable = false)
    private int tokensAssistant;

    @Column(name = "tokens_tools", nullable = false)
    private int tokensTools;

    @Column(name = "tokens_total", nullable = false)
    private int tokensTotal;

    @Column(name = "tokenizer", nullable = false, length = 32)
    private String tokenizer;

    @Column(name = "state", nullable = false, length = 16)
    private String state;

    @Column(name = "schema_version", nullable = false)
    private int schemaVersion;

    @Column(name = "norm_version", length = 16)
    private String normVersion;

    @OneToMany(mappedBy = "turn", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("ordinal ASC")
    private List<ToolInvocation> invocations = new ArrayList<>();

    protected Turn() {}

    public Turn(Conversation conversation, long seq) {
        this.conversation = conversation;
        this.tenantId = conversation.getTenantId();
        this.seq = seq;
    }

    public void addInvocation(ToolInvocation invocation) {
        invocations.add(invocation);
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

    public String getTenantId() {
        return tenantId;
    }

    public Conversation getConversation() {
        return conversation;
    }

    public long getSeq() {
        return seq;
    }

    public String getTurnId() {
        return turnId;
    }

    public void setTurnId(String turnId) {
        this.turnId = turnId;
    }

    public String getUserId() {
        return userId;
    }

    public void setUserId(String userId) {
        this.userId = userId;
    }

    public String getChatbotId() {
        return chatbotId;
    }

    public void setChatbotId(String chatbotId) {
        this.chatbotId = chatbotId;
    }

    public String getUserMessage() {
        return userMessage;
    }

    public void setUserMessage(String userMessage) {
        this.userMessage = userMessage;
    }

    public String getAssistantResponse() {
        return assistantResponse;
    }

    public void setAssistantResponse(String assistantResponse) {
        this.assistantResponse = assistantResponse;
    }

    public String getContextUsed() {
        return contextUsed;
    }

    public void setContextUsed(String contextUsed) {
        this.contextUsed = contextUsed;
    }

    public List<String> getToolsUsed() {
        return toolsUsed;
    }

    public void setToolsUsed(List<String> toolsUsed) {
        this.toolsUsed = new ArrayList<>(toolsUsed);
    }

    public Instant getOccurredAt() {
        return occurredAt;
    }

    public void setOccurredAt(Instant occurredAt) {
        this.occurredAt = occurredAt;
    }

    public Map<String, Object> getMetadata() {
        return metadata;
    }

    public void setMetadata(Map<String, Object> metadata) {
        this.metadata = new LinkedHashMap<>(metadata);
    }

    public String getError() {
        return error;
    }

    public void setError(String error) {
        this.error = error;
    }

    public int getTokensUser() {
        return tokensUser;
    }

    public int getTokensAssistant() {
        return tokensAssistant;
    }

    public int getTokensTools() {
        return tokensTools;
    }

    public int getTokensTotal() {
        return tokensTotal;
    }

    public String getTokenizer() {
        return tokenizer;
    }

    public void setTokens(int user, int assistant, int tools, int total, String tokenizerName) {
        this.tokensUser = user;
        this.tokensAssistant = assistant;
        this.tokensTools = tools;
        this.tokensTotal = total;
        this.tokenizer = tokenizerName;
    }

    public String getState() {
        return state;
    }

    public void setState(String state) {
        this.state = state;
    }

    public int getSchemaVersion() {
        return schemaVersion;
    }

    public void setSchemaVersion(int schemaVersion) {
        this.schemaVersion = schemaVersion;
    }

    public String getNormVersion() {
        return normVersion;
    }

    public void setNormVersion(String normVersion) {
        this.normVersion = normVersion;
    }

    public List<ToolInvocation> getInvocations() {
        return invocations;
    }
}
