package org.agentmemory.conversation.control;

import java.util.List;

import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.json.CanonicalJson;
import org.agentmemory.tokens.TokenCounter;

/** Interim: token counting only (replaced by the full write-path preparation). */
public final class TurnPreparer {

    private TurnPreparer() {
    }

    public static PreparedTurn prepare(TurnRecord turn, boolean normalize, TokenCounter counter, int oversizeToolTokens) {
        int user = counter.count(turn.userMessage());
        int assistant = counter.count(turn.assistantResponse());
        int tools = 0;
        for (ToolInvocationRecord inv : turn.toolInvocations()) {
            tools += counter.count(CanonicalJson.write(inv.input())) + counter.count(inv.output()) + counter.count(inv.error());
        }
        TokenCount count = new TokenCount(user, assistant, tools, user + assistant + tools, counter.name());
        return new PreparedTurn(turn.withTokenCount(count), List.of());
    }
}
