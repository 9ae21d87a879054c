package org.agentmemory.it;

import static org.agentmemory.it.support.Contexts.words;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.context.AssembledContext;
import org.agentmemory.api.context.ContextAssemblyRequest;
import org.agentmemory.api.context.ContextMemoryRemote;
import org.agentmemory.api.context.ContextOutcome;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.it.support.RemoteClient;
import org.agentmemory.omission.control.ContentIds;
import org.junit.jupiter.api.Test;

/**
 * The read path through the remote EJB view from a plain Java client (PostgreSQL server): records travel by
 * value, business failures arrive as checked exceptions, and the commit round trip works the same as over REST.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it calls the remote EJB views over remote+http, and Liberty binds remote views for IIOP only.
 */
class ContextRemoteIT {

    @Test
    void aBotRoundThroughTheRemoteViews() throws Exception {
        ConversationMemoryRemote conversations = RemoteClient.conversationMemory();
        ContextMemoryRemote context = RemoteClient.contextMemory();
        ConversationKey key = ConversationKey.of("remote-bot", unique("remote"), "s");
        String output = words(31, 300);
        List<TurnRecord> history = new ArrayList<>();
        history.add(TurnRecord.of("r1", "check the queue", "the queue is long")
                .withToolInvocations(List.of(
                        ToolInvocationRecord.of("bash", Map.of("command", "rabbitmqctl list_queues"), output))));
        history.add(TurnRecord.of("r2", "read the dump", "the dump is big")
                .withToolInvocations(
                        List.of(ToolInvocationRecord.of("read_file", Map.of("path", "/tmp/dump"), words(32, 2500)))));
        for (int i = 3; i <= 5; i++) {
            history.add(TurnRecord.of("r" + i, "question " + i, "answer " + i));
        }
        conversations.addTurns(key, history);

        ConversationContext round =
                context.context(key, ContextRequest.forModel("gpt-4o").withPromptTokens(200, 20));
        assertThat(round.outcome()).isEqualTo(ContextOutcome.FITTED);
        assertThat(round.messages())
                .extracting(HistoryMessage::role)
                .containsExactly(
                        "user",
                        "assistant",
                        "user",
                        "assistant",
                        "user",
                        "assistant",
                        "user",
                        "assistant",
                        "user",
                        "assistant");
        assertThat(round.tiers())
                .extracting(t -> t.state())
                .containsExactly(TurnState.PRUNED, TurnState.PRUNED, TurnState.RAW, TurnState.RAW, TurnState.RAW);
        assertThat(round.boundaryTurnId()).isEqualTo("r2");
        assertThat(round.commit().promptEstimate()).isEqualTo(round.tokensUsed() + 220L);
        assertThat(context.readOmittedContent(
                        key.tenantId(), round.conversationId(), ContentIds.contentId(output), null))
                .isEqualTo(output);
        // A client of another tenant (issue 32 item 2) finds no conversation scope, whatever tenant it names.
        assertThat(RemoteClient.contextMemory(RemoteClient.ALICE)
                        .readOmittedContent(key.tenantId(), round.conversationId(), ContentIds.contentId(output), null))
                .isEqualTo("read_omitted_content is unavailable in this context (no active conversation scope).");

        conversations.addTurn(
                key,
                TurnRecord.of("r6", "thanks", "welcome")
                        .withMetadata(Map.of(
                                "usage", Map.of("input_tokens", round.commit().promptEstimate()))),
                round.commit());
        Map<String, Object> state = conversations
                .getMetadata(key.tenantId(), round.conversationId())
                .metadata();
        assertThat(state.get("compaction")).isInstanceOf(Map.class);
        Map<?, ?> compaction = (Map<?, ?>) state.get("compaction");
        assertThat(compaction.get("boundary_turn_id")).isEqualTo("r2");
        assertThat(((Number) compaction.get("calibration")).doubleValue()).isEqualTo(1.0);
        assertThat(((Number) compaction.get("samples")).intValue()).isEqualTo(1);

        AssembledContext assembled = context.assemble(key, ContextAssemblyRequest.of("queue"));
        assertThat(assembled.prompt()).startsWith("<recent_conversation>\nUser: check the queue\n");
        assertThat(assembled.conversationOutcome()).isEqualTo(ContextOutcome.FITTED);

        ConversationContext none = context.context(ConversationKey.of("remote-bot", unique("nobody"), "s"), null);
        assertThat(none.conversationId()).isNull();
        assertThat(none.outcome()).isEqualTo(ContextOutcome.NOTHING_TO_RENDER);

        assertThatThrownBy(() -> context.context(key, ContextRequest.forWindow(-3)))
                .isInstanceOf(InvalidInputException.class)
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("window"));
    }
}
