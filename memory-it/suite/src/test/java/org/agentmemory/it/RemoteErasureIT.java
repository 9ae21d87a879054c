package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.UUID;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.erasure.ErasureReceipt;
import org.agentmemory.api.erasure.SubjectErasureRemote;
import org.agentmemory.api.pii.MessageRole;
import org.agentmemory.api.pii.PiiMemoryRemote;
import org.agentmemory.it.support.RemoteClient;
import org.junit.jupiter.api.Test;

/**
 * The operations of issue 34 over the remote EJB views, on the PostgreSQL server: PII threads, per-user conversation
 * deletes and the subject erasure act in the caller's tenant whatever tenant they name, and need the caller's role.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it calls the remote EJB views over remote+http, and Liberty binds remote views for IIOP only.
 */
class RemoteErasureIT {

    private static final String SUBJECT_ERASURE =
            "ejb:agent-memory/memory-ejb/SubjectErasureBean!" + SubjectErasureRemote.class.getName();
    private static final String PII = "ejb:agent-memory/memory-ejb/PiiMemoryBean!" + PiiMemoryRemote.class.getName();

    @Test
    void piiThreadsBelongToTheCallersTenant() throws Exception {
        PiiMemoryRemote alice = RemoteClient.lookup(PII, PiiMemoryRemote.class, RemoteClient.ALICE);
        PiiMemoryRemote bob = RemoteClient.lookup(PII, PiiMemoryRemote.class, RemoteClient.BOB);
        String user = "pii-remote-" + UUID.randomUUID();

        assertThat(alice.anonymize("ejb-tenant-b", user, "t1", "m1", "Mail ann@example.com", null, MessageRole.USER)
                        .text())
                .isEqualTo("Mail <<EMAIL_1>>");
        assertThat(alice.deanonymize("default", user, "t1", "to <<EMAIL_1>>").text())
                .isEqualTo("to ann@example.com");
        assertThat(bob.deanonymize("ejb-tenant-a", user, "t1", "to <<EMAIL_1>>").text())
                .as("another tenant's caller, naming the first tenant")
                .isEqualTo("to <<EMAIL_1>>");
        assertThat(bob.forget("ejb-tenant-a", user, "t1").messages()).isZero();
        assertThat(alice.forget("ejb-tenant-a", user, "t1").messages()).isEqualTo(1);
    }

    @Test
    void perUserDeletesStayInTheCallersTenant() throws Exception {
        ConversationMemoryRemote alice = RemoteClient.conversationMemory(RemoteClient.ALICE);
        ConversationMemoryRemote bob = RemoteClient.conversationMemory(RemoteClient.BOB);
        String user = "delete-remote-" + UUID.randomUUID();
        ConversationKey key = ConversationKey.of("remote-deletes", user, "s1");
        long aliceId =
                alice.addTurn(key, TurnRecord.of("t1", "alice's turn", "ok")).conversationId();
        long bobId = bob.addTurn(key, TurnRecord.of("t1", "bob's turn", "ok")).conversationId();

        assertThat(alice.deleteUserConversations("ejb-tenant-b", "remote-deletes", user))
                .isEqualTo(1);
        assertThat(catchThrowable(() -> alice.getHistoryById("ejb-tenant-a", aliceId)))
                .isInstanceOf(NotFoundException.class);
        assertThat(bob.getHistoryById("ejb-tenant-b", bobId).turns()).hasSize(1);
        assertThat(RemoteClient.messages(
                        catchThrowable(() -> alice.deleteChatbotConversations("ejb-tenant-a", "remote-deletes"))))
                .contains("lacks the role memory-admin");
    }

    @Test
    void theSubjectErasureNeedsAnAdministratorAndErasesInTheCallersTenant() throws Exception {
        String user = "erase-remote-" + UUID.randomUUID();
        ConversationKey key = ConversationKey.of("remote-erasure", user, "s1");
        ConversationMemoryRemote itest = RemoteClient.conversationMemory(RemoteClient.ITEST);
        ConversationMemoryRemote bob = RemoteClient.conversationMemory(RemoteClient.BOB);
        long defaultId = itest.addTurn(key, TurnRecord.of("t1", "the subject's turn", "ok"))
                .conversationId();
        long bobId = bob.addTurn(key, TurnRecord.of("t1", "same user id, other tenant", "ok"))
                .conversationId();
        RemoteClient.lookup(PII, PiiMemoryRemote.class, RemoteClient.ITEST)
                .anonymize("default", user, "t1", "m1", "Call ann@example.com", null, MessageRole.USER);

        Throwable writer = catchThrowable(
                () -> RemoteClient.lookup(SUBJECT_ERASURE, SubjectErasureRemote.class, RemoteClient.ALICE)
                        .eraseSubject("ejb-tenant-a", user));
        assertThat(RemoteClient.messages(writer)).contains("lacks the role memory-admin");

        ErasureReceipt receipt = RemoteClient.lookup(SUBJECT_ERASURE, SubjectErasureRemote.class, RemoteClient.ITEST)
                .eraseSubject("ejb-tenant-b", user);
        assertThat(receipt.conversations()).isEqualTo(1);
        assertThat(receipt.turns()).isEqualTo(1);
        assertThat(receipt.piiThreads()).isEqualTo(1);
        assertThat(receipt.piiDetections()).isEqualTo(1);
        assertThat(catchThrowable(() -> itest.getHistoryById("default", defaultId)))
                .isInstanceOf(NotFoundException.class);
        assertThat(bob.getHistoryById("ejb-tenant-b", bobId).turns())
                .as("the same user id in another tenant is another person")
                .hasSize(1);
    }
}
