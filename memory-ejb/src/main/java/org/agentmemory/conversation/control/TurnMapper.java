package org.agentmemory.conversation.control;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationSummary;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.ToolInvocation;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.platform.json.CanonicalJson;

/**
 * Copies between entities and transfer records. Entities never leave the EJB module.
 */
public final class TurnMapper {

    private TurnMapper() {}

    /** @return the key of a stored conversation */
    public static ConversationKey key(Conversation c) {
        return new ConversationKey(c.getTenantId(), c.getChatbotId(), c.getUserId(), c.getSessionId());
    }

    /** @return the summary of a stored conversation */
    public static ConversationSummary summary(Conversation c) {
        return new ConversationSummary(c.getId(), key(c), c.getCreatedAt(), c.getUpdatedAt(), c.getTurnCount());
    }

    /** @return the history of a stored conversation with the given turns */
    public static ConversationHistory history(Conversation c, List<TurnRecord> turns) {
        return new ConversationHistory(
                c.getId(), key(c), c.getCreatedAt(), c.getUpdatedAt(), c.getMetadata(), c.getVersion(), turns);
    }

    /**
     * Fills a new turn entity from a prepared record.
     *
     * @param turn   the entity (already holding its conversation and sequence)
     * @param record the prepared turn: ids resolved, normalized, counted
     */
    public static void fill(Turn turn, TurnRecord record) {
        turn.setTurnId(record.turnId());
        turn.setUserId(record.userId());
        turn.setChatbotId(record.chatbotId());
        turn.setUserMessage(record.userMessage() == null ? "" : record.userMessage());
        turn.setAssistantResponse(record.assistantResponse() == null ? "" : record.assistantResponse());
        turn.setContextUsed(record.contextUsed());
        turn.setToolsUsed(record.toolsUsed());
        turn.setOccurredAt(record.timestamp());
        turn.setMetadata(record.metadata());
        turn.setError(record.error());
        TokenCount tc = record.tokenCount();
        turn.setTokens(tc.user(), tc.assistant(), tc.tools(), tc.total(), tc.tokenizer());
        turn.setState(name(record.state() == null ? TurnState.RAW : record.state()));
        turn.setSchemaVersion(record.schemaVersion() == null ? 2 : record.schemaVersion());
        turn.setNormVersion(record.normVersion());
        List<ToolInvocationRecord> invocations = record.toolInvocations();
        for (int i = 0; i < invocations.size(); i++) {
            ToolInvocationRecord r = invocations.get(i);
            ToolInvocation inv = new ToolInvocation(turn, i);
            inv.setToolName(r.toolName());
            inv.setInput(CanonicalJson.write(r.input()));
            inv.setOutput(r.output());
            inv.setStatus(name(r.status()));
            inv.setError(r.error());
            inv.setElapsedMs(r.elapsedMs());
            inv.setOutputChars(r.outputChars());
            inv.setOmitted(r.omitted());
            inv.setWmKey(r.wmKey());
            turn.addInvocation(inv);
        }
    }

    /**
     * @param turn        a stored turn
     * @param invocations its invocations in ordinal order (passed in so histories load them in one query)
     * @return the transfer record
     */
    public static TurnRecord record(Turn turn, List<ToolInvocation> invocations) {
        List<ToolInvocationRecord> records = new ArrayList<>(invocations.size());
        for (ToolInvocation inv : invocations) {
            records.add(record(inv));
        }
        return new TurnRecord(
                turn.getTurnId(),
                turn.getSeq(),
                turn.getUserId(),
                turn.getUserMessage(),
                turn.getAssistantResponse(),
                turn.getContextUsed(),
                turn.getToolsUsed(),
                turn.getOccurredAt(),
                turn.getMetadata(),
                turn.getChatbotId(),
                records,
                turn.getError(),
                new TokenCount(
                        turn.getTokensUser(),
                        turn.getTokensAssistant(),
                        turn.getTokensTools(),
                        turn.getTokensTotal(),
                        turn.getTokenizer()),
                state(turn.getState()),
                turn.getSchemaVersion(),
                turn.getNormVersion());
    }

    /**
     * @param row  the columns selected by {@code ConversationStore.turns}: id, seq, turnId, userId, chatbotId,
     *             userMessage, assistantResponse, contextUsed, toolsUsed, occurredAt, metadata, error, the four
     *             token counts, tokenizer, state, schemaVersion, normVersion
     * @param invocations the turn's invocations in ordinal order
     * @return the transfer record
     */
    @SuppressWarnings("unchecked")
    static TurnRecord turn(Object[] row, List<ToolInvocationRecord> invocations) {
        return new TurnRecord(
                (String) row[2],
                (Long) row[1],
                (String) row[3],
                (String) row[5],
                (String) row[6],
                (String) row[7],
                (List<String>) row[8],
                (java.time.Instant) row[9],
                (Map<String, Object>) row[10],
                (String) row[4],
                invocations,
                (String) row[11],
                new TokenCount(
                        (Integer) row[12], (Integer) row[13], (Integer) row[14], (Integer) row[15], (String) row[16]),
                state((String) row[17]),
                (Integer) row[18],
                (String) row[19]);
    }

    /**
     * @param row the columns selected by {@code ConversationStore.turns}: turn id, toolName, input, output,
     *            status, error, elapsedMs, outputChars, omitted, wmKey
     * @return the transfer record
     */
    @SuppressWarnings("unchecked")
    static ToolInvocationRecord invocation(Object[] row) {
        return new ToolInvocationRecord(
                (String) row[1],
                parseInput((String) row[2]),
                (String) row[3],
                status((String) row[4]),
                (String) row[5],
                (Long) row[6],
                (Integer) row[7],
                (Map<String, String>) row[8],
                (String) row[9]);
    }

    private static Map<String, Object> parseInput(String json) {
        if ("{}".equals(json)) {
            return Map.of();
        }
        try {
            return CanonicalJson.parseObject(json);
        } catch (IOException e) {
            throw new IllegalStateException("Stored tool input is not a JSON object: " + e.getMessage(), e);
        }
    }

    private static ToolInvocationRecord record(ToolInvocation inv) {
        return new ToolInvocationRecord(
                inv.getToolName(),
                parseInput(inv.getInput()),
                inv.getOutput(),
                status(inv.getStatus()),
                inv.getError(),
                inv.getElapsedMs(),
                inv.getOutputChars(),
                inv.getOmitted(),
                inv.getWmKey());
    }

    /** Stored names ({@link #name}) of the states and statuses, looked up without upper-casing each row's value. */
    private static final Map<String, TurnState> STATES = storedNames(TurnState.class);

    private static final Map<String, InvocationStatus> STATUSES = storedNames(InvocationStatus.class);

    private static <E extends Enum<E>> Map<String, E> storedNames(Class<E> type) {
        Map<String, E> names = new java.util.HashMap<>();
        for (E value : type.getEnumConstants()) {
            names.put(name(value), value);
        }
        return Map.copyOf(names);
    }

    /**
     * @param stored a stored state column ({@code raw}, {@code pruned}, {@code summarized}; written by
     *               {@link #fill}), any case
     * @return the state
     * @throws IllegalArgumentException for any other value
     */
    static TurnState state(String stored) {
        // Histories map thousands of rows per read: the upper-casing copy of valueOf showed in profiles of
        // getHistory, so the stored lower-case names are looked up first.
        TurnState state = STATES.get(stored);
        return state != null ? state : TurnState.valueOf(stored.toUpperCase(Locale.ROOT));
    }

    /**
     * @param stored a stored invocation status ({@code completed} or {@code error}), any case
     * @return the status
     * @throws IllegalArgumentException for any other value
     */
    static InvocationStatus status(String stored) {
        InvocationStatus status = STATUSES.get(stored);
        return status != null ? status : InvocationStatus.valueOf(stored.toUpperCase(Locale.ROOT));
    }

    private static String name(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
