package org.agentmemory.conversation.control;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationSummary;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.conversation.TurnState;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.ToolInvocation;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.json.CanonicalJson;

/**
 * Copies between entities and transfer records. Entities never leave the EJB module.
 */
public final class TurnMapper {

    private TurnMapper() {
    }

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
        return new ConversationHistory(c.getId(), key(c), c.getCreatedAt(), c.getUpdatedAt(), c.getMetadata(),
                c.getVersion(), turns);
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
        return new TurnRecord(turn.getTurnId(), turn.getSeq(), turn.getUserId(), turn.getUserMessage(),
                turn.getAssistantResponse(), turn.getContextUsed(), turn.getToolsUsed(), turn.getOccurredAt(),
                turn.getMetadata(), turn.getChatbotId(), records, turn.getError(),
                new TokenCount(turn.getTokensUser(), turn.getTokensAssistant(), turn.getTokensTools(),
                        turn.getTokensTotal(), turn.getTokenizer()),
                TurnState.valueOf(turn.getState().toUpperCase(Locale.ROOT)), turn.getSchemaVersion(),
                turn.getNormVersion());
    }

    private static ToolInvocationRecord record(ToolInvocation inv) {
        Map<String, Object> input;
        try {
            input = CanonicalJson.parseObject(inv.getInput());
        } catch (IOException e) {
            throw new IllegalStateException("Stored tool input of invocation " + inv.getId() + " is not a JSON object", e);
        }
        return new ToolInvocationRecord(inv.getToolName(), input, inv.getOutput(),
                InvocationStatus.valueOf(inv.getStatus().toUpperCase(Locale.ROOT)), inv.getError(), inv.getElapsedMs(),
                inv.getOutputChars(), inv.getOmitted(), inv.getWmKey());
    }

    private static String name(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
