package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;

/** Builders of hand-made histories for the tests. */
final class Turns {

    private Turns() {}

    /** A turn whose stored count (tokenizer "words") says user + assistant = {@code user + assistant}. */
    static TurnRecord sized(String id, int user, int assistant) {
        return TurnRecord.of(id, "question " + id, "answer " + id)
                .withTokenCount(new TokenCount(user, assistant, 0, user + assistant, "words"));
    }

    /** {@code count} turns t1..tN of the given stored size each (user 40 %, assistant 60 %). */
    static List<TurnRecord> sizedHistory(int count, int eachTokens) {
        List<TurnRecord> turns = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            int user = eachTokens * 2 / 5;
            turns.add(sized("t" + i, user, eachTokens - user));
        }
        return turns;
    }

    static TurnRecord turn(String id, String user, String assistant, ToolInvocationRecord... invocations) {
        return TurnRecord.of(id, user, assistant).withToolInvocations(List.of(invocations));
    }

    static ToolInvocationRecord tool(String name, Map<String, Object> input, String output) {
        return ToolInvocationRecord.of(name, input, output);
    }

    static ToolInvocationRecord failed(String name, Map<String, Object> input, String error) {
        return new ToolInvocationRecord(name, input, null, InvocationStatus.ERROR, error, null, null, null, null);
    }

    static ToolInvocationRecord offloaded(
            String name, Map<String, Object> input, String preview, int originalChars, String contentId, String wmKey) {
        return new ToolInvocationRecord(
                name,
                input,
                preview,
                InvocationStatus.COMPLETED,
                null,
                null,
                originalChars,
                Map.of("output", contentId),
                wmKey);
    }

    static String words(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                text.append(' ');
            }
            text.append('w').append(i);
        }
        return text.toString();
    }
}
