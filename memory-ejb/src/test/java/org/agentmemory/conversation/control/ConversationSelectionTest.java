package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.persistence.Query;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConversationSelectionTest {

    private static final Instant CUT_OFF = Instant.parse("2026-12-01T00:00:00Z");

    /** @return the parameters {@link ConversationSelection#bind} set, by name */
    private static Map<String, Object> bound(ConversationSelection selection, long afterId) {
        Map<String, Object> params = new LinkedHashMap<>();
        Query query = (Query) Proxy.newProxyInstance(
                Query.class.getClassLoader(), new Class<?>[] {Query.class}, (proxy, method, args) -> {
                    if (method.getName().equals("setParameter") && args[0] instanceof String name) {
                        params.put(name, args[1]);
                        return proxy;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        selection.bind(query, afterId);
        return params;
    }

    @Test
    void anAgentsConversationsAreScopedToTheTenantAndTheAgentOnly() {
        ConversationSelection s = ConversationSelection.ofChatbot("acme", "support-bot");
        assertThat(s.where()).isEqualTo("c.tenantId = :t AND c.chatbotKey = :b AND c.id > :after");
        assertThat(bound(s, 0))
                .containsExactly(Map.entry("t", "acme"), Map.entry("b", "support-bot"), Map.entry("after", 0L));
    }

    @Test
    void oneUsersConversationsAddTheUser() {
        ConversationSelection s = ConversationSelection.ofUser("acme", "support-bot", "alice");
        assertThat(s.where()).isEqualTo("c.tenantId = :t AND c.chatbotKey = :b AND c.userId = :u AND c.id > :after");
        assertThat(bound(s, 42))
                .containsExactly(
                        Map.entry("t", "acme"),
                        Map.entry("b", "support-bot"),
                        Map.entry("u", "alice"),
                        Map.entry("after", 42L));
    }

    @Test
    void idleConversationsAreThoseLastWrittenStrictlyBeforeTheCutOffInOneTenant() {
        ConversationSelection s = ConversationSelection.idleBefore("acme", CUT_OFF);
        assertThat(s.where()).isEqualTo("c.tenantId = :t AND c.updatedAt < :idle AND c.id > :after");
        assertThat(bound(s, 7))
                .containsExactly(Map.entry("t", "acme"), Map.entry("idle", CUT_OFF), Map.entry("after", 7L));
    }

    @Test
    void theDefaultAgentIsItsStoredKey() {
        assertThat(ConversationSelection.ofChatbot("acme", null).chatbotKey()).isEmpty();
    }

    @Test
    void aSelectionWithoutTenantIsRefused() {
        assertThatThrownBy(() -> new ConversationSelection(null, "bot", null, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("tenantId");
    }
}
