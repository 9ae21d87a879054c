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
import org.agentmemory.platform.json.UtcInstantConverter;

/**
 * The Stage 2 summary of a conversation's earlier turns (issue 35 item 4, decision 0017): one per conversation,
 * covering the turns of sequence {@code firstSeq..lastSeq}, extended in place as more turns drop. The conversation's
 * key is repeated so that erasure finds a subject's summaries by tenant and user; {@code method} is
 * {@code model} or {@code extractive}.
 */
@Entity
@Table(name = "history_summary")
public class Summary {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "history_summary_seq")
    @SequenceGenerator(name = "history_summary_seq", sequenceName = "history_summary_seq", allocationSize = 50)
    private Long id;

    @Column(name = "tenant_id", nullable = false, length = 64)
    private String tenantId;

    @Column(name = "conversation_id", nullable = false)
    private long conversationId;

    @Column(name = "chatbot_key", nullable = false, length = 512)
    private String chatbotKey;

    @Column(name = "user_id", nullable = false, length = 512)
    private String userId;

    @Column(name = "session_id", nullable = false, length = 512)
    private String sessionId;

    @Column(name = "first_seq", nullable = false)
    private long firstSeq;

    @Column(name = "last_seq", nullable = false)
    private long lastSeq;

    @Column(name = "first_turn_id", nullable = false, length = 512)
    private String firstTurnId;

    @Column(name = "last_turn_id", nullable = false, length = 512)
    private String lastTurnId;

    @Column(name = "turn_count", nullable = false)
    private int turnCount;

    @Column(name = "summary_text", nullable = false)
    private String text;

    @Column(name = "token_count", nullable = false)
    private int tokenCount;

    @Column(name = "tokenizer", nullable = false, length = 32)
    private String tokenizer;

    @Column(name = "method", nullable = false, length = 16)
    private String method;

    @Column(name = "refreshes", nullable = false)
    private int refreshes;

    @Column(name = "added_turns", nullable = false)
    private int addedTurns;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Convert(converter = UtcInstantConverter.class)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @Version
    @Column(name = "version", nullable = false)
    private long version;

    protected Summary() {}

    /**
     * A new, empty summary of a conversation; {@link #write} gives it its range and text.
     *
     * @param conversation the conversation
     * @param now          when it is created
     */
    public Summary(Conversation conversation, Instant now) {
        this.tenantId = conversation.getTenantId();
        this.conversationId = conversation.getId();
        this.chatbotKey = Conversation.toKey(conversation.getChatbotId());
        this.userId = conversation.getUserId();
        this.sessionId = conversation.getSessionId();
        this.createdAt = now;
    }

    /**
     * Replaces the range and the text.
     *
     * @param firstSeq    sequence of the oldest turn covered
     * @param firstTurnId its turn id
     * @param lastSeq     sequence of the newest turn covered
     * @param lastTurnId  its turn id
     * @param turnCount   turns covered
     * @param addedTurns  turns this write added
     * @param text        the summary
     * @param tokenCount  its tokens
     * @param tokenizer   the counter of {@code tokenCount}
     * @param method      {@code model} or {@code extractive}
     * @param now         when
     */
    public void write(
            long firstSeq,
            String firstTurnId,
            long lastSeq,
            String lastTurnId,
            int turnCount,
            int addedTurns,
            String text,
            int tokenCount,
            String tokenizer,
            String method,
            Instant now) {
        this.firstSeq = firstSeq;
        this.firstTurnId = firstTurnId;
        this.lastSeq = lastSeq;
        this.lastTurnId = lastTurnId;
        this.turnCount = turnCount;
        this.addedTurns = addedTurns;
        this.text = text;
        this.tokenCount = tokenCount;
        this.tokenizer = tokenizer;
        this.method = method;
        this.refreshes++;
        this.updatedAt = now;
    }

    public Long getId() {
        return id;
    }

    public String getTenantId() {
        return tenantId;
    }

    public long getConversationId() {
        return conversationId;
    }

    public String getUserId() {
        return userId;
    }

    public long getFirstSeq() {
        return firstSeq;
    }

    public long getLastSeq() {
        return lastSeq;
    }

    public String getFirstTurnId() {
        return firstTurnId;
    }

    public String getLastTurnId() {
        return lastTurnId;
    }

    public int getTurnCount() {
        return turnCount;
    }

    public String getText() {
        return text;
    }

    public int getTokenCount() {
        return tokenCount;
    }

    public String getTokenizer() {
        return tokenizer;
    }

    public String getMethod() {
        return method;
    }

    public int getRefreshes() {
        return refreshes;
    }

    public int getAddedTurns() {
        return addedTurns;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }

    public long getVersion() {
        return version;
    }
}
