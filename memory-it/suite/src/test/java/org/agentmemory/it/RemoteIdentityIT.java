package org.agentmemory.it;

import static org.agentmemory.it.support.Api.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.conversation.ConversationHistory;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.RemoteClient;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.api.Test;

/**
 * EJB callers act as who they authenticated as (issue 32 item 2), on the PostgreSQL server: a remote client in the
 * tenant its application user is mapped to ({@code memory.security.ejb.tenants}), whatever tenant its key names; a
 * client without credentials, with a wrong password or without a tenant is refused; a role below the operation's is
 * refused; a second EAR's servlet running as a logged-in user writes into that user's tenant.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it calls the remote EJB views over remote+http, and Liberty binds remote views for IIOP only.
 */
class RemoteIdentityIT {

    @Test
    void twoRemoteClientsOfTwoTenantsSeeOnlyTheirOwnData() throws Exception {
        String user = "same-user-" + UUID.randomUUID();
        ConversationKey key = ConversationKey.of("remote-identity", user, "s1"); // tenant "default" in the key
        ConversationMemoryRemote alice = RemoteClient.conversationMemory(RemoteClient.ALICE);
        ConversationMemoryRemote bob = RemoteClient.conversationMemory(RemoteClient.BOB);

        long aliceId = alice.addTurn(key, TurnRecord.of("t1", "alice's secret is lynx", "ok"))
                .conversationId();
        long bobId = bob.addTurn(key, TurnRecord.of("t1", "bob's secret is heron", "ok"))
                .conversationId();
        assertThat(aliceId).isNotEqualTo(bobId);

        ConversationHistory seenByAlice = alice.getHistory(key);
        assertThat(seenByAlice.key().tenantId()).isEqualTo("ejb-tenant-a");
        assertThat(seenByAlice.turns())
                .singleElement()
                .satisfies(t -> assertThat(t.userMessage()).contains("lynx"));
        ConversationHistory seenByBob = bob.getHistory(key);
        assertThat(seenByBob.key().tenantId()).isEqualTo("ejb-tenant-b");
        assertThat(seenByBob.turns())
                .singleElement()
                .satisfies(t -> assertThat(t.userMessage()).contains("heron"));

        // Naming the other tenant explicitly changes nothing: the caller's tenant replaces it.
        assertThat(catchThrowable(() -> alice.getHistoryById("ejb-tenant-b", bobId)))
                .isInstanceOf(NotFoundException.class);
        assertThat(alice.getHistoryById("ejb-tenant-b", aliceId).turns()).hasSize(1);

        // The tenant's REST callers see what its remote client wrote; the default tenant does not.
        Api rest = Api.postgres();
        Api tenantA = rest.as(
                Tokens.of(rest, "ejb-tenant-a", List.of("memory-reader")).sign());
        assertThat(tenantA.get("/conversations/" + aliceId).body()).contains("lynx");
        assertThat(rest.get("/conversations/" + aliceId).status()).isEqualTo(404);
        assertThat(rest.get("/conversations/lookup"
                                + query("userId", user, "sessionId", "s1", "chatbotId", "remote-identity"))
                        .status())
                .isEqualTo(404);
    }

    @Test
    void callersWithoutCredentialsTenantOrRoleAreRefused() {
        ConversationKey key = ConversationKey.of("remote-identity", "refused-" + UUID.randomUUID(), "s1");
        TurnRecord turn = TurnRecord.of("t1", "should not be stored", "no");

        Throwable local =
                catchThrowable(() -> RemoteClient.conversationMemory(null).addTurn(key, turn));
        assertThat(local).as("a same-host client without credentials ($local)").isNotNull();
        assertThat(RemoteClient.messages(local)).contains("has no tenant");

        Throwable nobody = catchThrowable(
                () -> RemoteClient.conversationMemory(RemoteClient.NOBODY).addTurn(key, turn));
        assertThat(RemoteClient.messages(nobody)).contains("memory-nobody").contains("has no tenant");

        Throwable wrongPassword = catchThrowable(
                () -> RemoteClient.conversationMemory(new RemoteClient.User("memory-alice", "not-her-password"))
                        .addTurn(key, turn));
        assertThat(wrongPassword).as("a wrong password").isNotNull();

        Throwable lowRole = catchThrowable(() ->
                RemoteClient.conversationMemory(RemoteClient.ALICE).chatbotStats("ejb-tenant-a", "remote-identity"));
        assertThat(RemoteClient.messages(lowRole)).contains("lacks the role memory-admin");

        Api rest = Api.postgres();
        assertThat(rest.get("/conversations/lookup"
                                + query("userId", key.userId(), "sessionId", "s1", "chatbotId", "remote-identity"))
                        .status())
                .as("nothing was stored")
                .isEqualTo(404);
    }

    @Test
    void aSecondEarRunsAsItsCallersIdentity() throws Exception {
        Api api = Api.postgres();
        HttpClient http = HttpClient.newHttpClient();
        String user = "probe-" + UUID.randomUUID();
        URI uri = URI.create(api.base() + "/memory-probe/secured-probe" + query("user", user));
        for (RemoteClient.User caller : List.of(RemoteClient.ALICE, RemoteClient.BOB)) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(uri)
                            .header("Authorization", basic(caller))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            String tenant = caller == RemoteClient.ALICE ? "ejb-tenant-a" : "ejb-tenant-b";
            assertThat(r.body())
                    .as("status " + r.statusCode())
                    .isEqualTo("caller=" + caller.name() + " tenant=" + tenant + " turns=1");
        }
        HttpResponse<String> anonymous =
                http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(401);
    }

    private static String basic(RemoteClient.User user) {
        return "Basic "
                + Base64.getEncoder()
                        .encodeToString((user.name() + ":" + user.password()).getBytes(StandardCharsets.UTF_8));
    }
}
