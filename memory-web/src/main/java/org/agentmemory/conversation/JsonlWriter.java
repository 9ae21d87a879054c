package org.agentmemory.conversation;

import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.conversation.ConversationMemory;
import org.agentmemory.api.conversation.ConversationSummary;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnPage;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.rest.RestJson;

/**
 * Streams conversations as JSONL ({@link JsonlLine} per turn), reading turns in slices so memory stays flat
 * whatever the conversation's size. Offloaded tool outputs are written in full (see
 * {@link #withOmittedContent}), so an export is a complete backup.
 */
final class JsonlWriter {

    /** Media type of JSONL streams. */
    static final String MEDIA_TYPE = "application/x-ndjson";

    private static final int SLICE = 500;
    private static final ObjectWriter WRITER = RestJson.mapper().writerFor(JsonlLine.class);

    private final ConversationMemory memory;
    private final String tenantId;
    private final OutputStream out;

    JsonlWriter(ConversationMemory memory, String tenantId, OutputStream out) {
        this.memory = memory;
        this.tenantId = tenantId;
        this.out = out;
    }

    /** Writes every turn of one conversation in sequence order. */
    void writeConversation(long conversationId) throws IOException {
        long after = 0;
        try {
            while (true) {
                TurnPage page = memory.getTurns(tenantId, conversationId, after, SLICE);
                JsonlLine.Key key = new JsonlLine.Key(
                        page.key().chatbotId(), page.key().userId(), page.key().sessionId());
                for (TurnRecord turn : page.turns()) {
                    out.write(WRITER.writeValueAsBytes(new JsonlLine(key, withOmittedContent(conversationId, turn))));
                    out.write('\n');
                }
                if (!page.hasMore()) {
                    break;
                }
                after = page.lastSequence();
            }
        } catch (MemoryException e) {
            throw new UncheckedIOException(
                    new IOException("export of conversation " + conversationId + " failed: " + e.getMessage(), e));
        }
        out.flush();
    }

    /**
     * The turn with each offloaded tool output put back in full (and its offload marks removed), so that an
     * export is a complete backup: importing it, under any key, offloads the same outputs again with the same
     * content ids. An output whose omission is gone (purged) keeps its preview and content id.
     */
    private TurnRecord withOmittedContent(long conversationId, TurnRecord turn) {
        if (turn.toolInvocations().stream().noneMatch(i -> i.omitted().containsKey("output"))) {
            return turn;
        }
        java.util.List<ToolInvocationRecord> invocations =
                new java.util.ArrayList<>(turn.toolInvocations().size());
        for (ToolInvocationRecord invocation : turn.toolInvocations()) {
            String contentId = invocation.omitted().get("output");
            ToolInvocationRecord restored = invocation;
            if (contentId != null) {
                try {
                    String full = memory.getOmission(tenantId, conversationId, contentId);
                    java.util.Map<String, String> omitted = new java.util.LinkedHashMap<>(invocation.omitted());
                    omitted.remove("output");
                    restored = new ToolInvocationRecord(
                            invocation.toolName(),
                            invocation.input(),
                            full,
                            invocation.status(),
                            invocation.error(),
                            invocation.elapsedMs(),
                            null,
                            omitted,
                            invocation.wmKey());
                } catch (NotFoundException purged) {
                    // Kept as stored: the preview and the content id.
                }
            }
            invocations.add(restored);
        }
        return turn.withToolInvocations(invocations);
    }

    /** Writes every conversation of a user (oldest conversation first), optionally of one agent. */
    void writeUser(String userId, String chatbotId) throws IOException {
        java.util.List<Long> ids = new java.util.ArrayList<>();
        String cursor = null;
        try {
            do {
                Page<ConversationSummary> page = memory.listSessions(tenantId, userId, chatbotId, 1000, cursor);
                page.items().forEach(s -> ids.add(s.conversationId()));
                cursor = page.nextCursor();
            } while (cursor != null);
        } catch (MemoryException e) {
            throw new UncheckedIOException(
                    new IOException("export of user " + userId + " failed: " + e.getMessage(), e));
        }
        java.util.Collections.reverse(ids);
        for (long id : ids) {
            writeConversation(id);
        }
    }
}
