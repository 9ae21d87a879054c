package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.RemoteClient;
import org.agentmemory.it.support.Turns;
import org.junit.jupiter.api.Test;

/**
 * The EJB views: a plain Java client calls the remote view by its {@code ejb:} name, and a second EAR on
 * the same server looks up the local and remote views by their {@code java:global} names.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it calls the remote EJB views over remote+http (and JNDI from a second EAR), and Liberty binds remote views for IIOP only.
 */
class RemoteAndJndiIT {

    @Test
    void aPlainJavaClientRoundTripsATurnThroughTheRemoteView() throws Exception {
        ConversationMemoryRemote remote = RemoteClient.conversationMemory();
        ConversationKey key = ConversationKey.of(null, Turns.unique("remote"), "s/1");
        TurnRecord turn = TurnRecord.of("r1", "what is 2+2?", "4")
                .withToolInvocations(List.of(new ToolInvocationRecord(
                        "calculator",
                        Map.of("expression", "2+2"),
                        "4",
                        InvocationStatus.COMPLETED,
                        null,
                        1L,
                        null,
                        null,
                        null)));
        AppendedTurn appended = remote.addTurn(key, turn);
        assertThat(appended.created()).isTrue();
        assertThat(appended.turn().sequence()).isEqualTo(1L);
        ConversationHistory history = remote.getHistory(key);
        assertThat(history.key()).isEqualTo(key);
        assertThat(history.turns()).hasSize(1);
        TurnRecord back = history.turns().get(0);
        assertThat(back.userMessage()).isEqualTo("what is 2+2?");
        assertThat(back.toolInvocations().get(0).input()).containsEntry("expression", "2+2");
        assertThat(back.tokenCount().tokenizer()).isEqualTo("o200k_base");

        // One turn alone, by the sequence the append answered, through the remote view; the errors arrive as the
        // application exceptions the interface declares, naming the field and the rule.
        TurnRecord one = remote.getTurn(
                "default", appended.conversationId(), appended.turn().sequence());
        assertThat(one).isEqualTo(back);
        NotFoundException noSuchTurn = catchThrowableOfType(
                NotFoundException.class, () -> remote.getTurn("default", appended.conversationId(), 2));
        assertThat(noSuchTurn.what()).isEqualTo("turn");
        InvalidInputException belowOne = catchThrowableOfType(
                InvalidInputException.class, () -> remote.getTurn("default", appended.conversationId(), 0));
        assertThat(belowOne.field()).isEqualTo("sequence");
        assertThat(belowOne.rule()).isEqualTo("min");
        // A remote caller acts in its user's tenant (issue 32 item 2): naming another tenant changes nothing, and a
        // client of another tenant does not find the conversation.
        assertThat(remote.getTurn("another-tenant", appended.conversationId(), 1))
                .isEqualTo(back);
        NotFoundException otherTenant = catchThrowableOfType(
                NotFoundException.class,
                () -> RemoteClient.conversationMemory(RemoteClient.ALICE)
                        .getTurn("default", appended.conversationId(), 1));
        assertThat(otherTenant.what()).isEqualTo("conversation");
    }

    @Test
    void applicationExceptionsReachTheRemoteClientWithFieldAndRule() {
        ConversationMemoryRemote remote = RemoteClient.conversationMemory();
        InvalidInputException invalid = catchThrowableOfType(
                InvalidInputException.class,
                () -> remote.addTurn(ConversationKey.of(null, "bad\tid", "s"), TurnRecord.of("t", "q", "a")));
        assertThat(invalid.field()).isEqualTo("userId");
        assertThat(invalid.rule()).isEqualTo("control-character");
        NotFoundException missing = catchThrowableOfType(
                NotFoundException.class,
                () -> remote.getHistory(ConversationKey.of(null, Turns.unique("nobody"), "s")));
        assertThat(missing.what()).isEqualTo("conversation");
    }

    @Test
    void aSecondEarCallsTheLocalAndRemoteViewsByTheirJavaGlobalNames() {
        Api api = Api.postgres();
        String user = Turns.unique("probe");
        Api.Response r = api.send(
                HttpRequest.newBuilder(URI.create(api.base() + "/memory-probe/probe" + Api.query("user", user)))
                        .GET());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("local=2 remote=2 sequences=1,2");
        assertThat(api.get("/conversations/lookup"
                                + Api.query("userId", user, "sessionId", "jndi", "chatbotId", "probe"))
                        .json()
                        .get("turns"))
                .hasSize(2);
    }

    /**
     * Calls without a transaction are group-committed in transactions of the service's own; a call made inside
     * the caller's JTA transaction must be written in that transaction, so the caller's rollback discards it.
     */
    @Test
    void aTurnAddedInsideTheCallersTransactionCommitsAndRollsBackWithIt() {
        Api api = Api.postgres();
        String rolledBack = Turns.unique("probe-tx");
        Api.Response r = api.send(HttpRequest.newBuilder(URI.create(
                        api.base() + "/memory-probe/probe" + Api.query("user", rolledBack, "tx", "rollback")))
                .GET());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("turns=0");

        String committed = Turns.unique("probe-tx");
        r = api.send(HttpRequest.newBuilder(
                        URI.create(api.base() + "/memory-probe/probe" + Api.query("user", committed, "tx", "commit")))
                .GET());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("turns=1");
    }
}
