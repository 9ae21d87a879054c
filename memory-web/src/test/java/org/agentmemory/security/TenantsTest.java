package org.agentmemory.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.junit.jupiter.api.Test;

class TenantsTest {

    private static Tenants as(String user, String agent) {
        Tenants tenants = new Tenants();
        tenants.authenticated(new Caller("acme", "alice", Roles.ALL, user, agent));
        return tenants;
    }

    @Test
    void anUnscopedTokenPassesEveryIdThrough() throws Exception {
        Tenants tenants = as(null, null);
        assertThat(tenants.key("", "bot", "bob", "s")).isEqualTo(new ConversationKey("acme", "bot", "bob", "s"));
        assertThat(tenants.userId("userId", null)).isNull();
        assertThatThrownBy(() -> tenants.key("key.", "bot", null, "s"))
                .isInstanceOfSatisfying(
                        org.agentmemory.api.InvalidInputException.class,
                        e -> assertThat(e.field()).isEqualTo("key.userId"))
                .hasMessage("key.userId is required");
        assertThat(tenants.agentId("agentId", null)).isNull();
        tenants.unscoped("anything");
        assertThat(tenants.mayRead(new ConversationKey("acme", "x", "y", "z"))).isTrue();
        assertThat(tenants.mayRead(new ConversationKey("other", "x", "y", "z"))).isFalse();
    }

    @Test
    void aUserScopedTokenFillsItsUserAndRefusesAnother() throws Exception {
        Tenants tenants = as("alice", null);
        assertThat(tenants.key("", "bot", null, "s")).isEqualTo(new ConversationKey("acme", "bot", "alice", "s"));
        assertThat(tenants.userId("userId", "alice")).isEqualTo("alice");
        assertThatThrownBy(() -> tenants.key("key.", "bot", "bob", "s"))
                .isInstanceOfSatisfying(
                        OutOfScopeException.class, e -> assertThat(e.field()).isEqualTo("key.userId"))
                .hasMessageContaining("alice");
        assertThatThrownBy(() -> tenants.unscoped("Listing an agent's users"))
                .isInstanceOf(OutOfScopeException.class)
                .hasMessageContaining("Listing an agent's users");
        assertThat(tenants.mayRead(new ConversationKey("acme", "bot", "alice", "s")))
                .isTrue();
        assertThat(tenants.mayRead(new ConversationKey("acme", "bot", "bob", "s")))
                .isFalse();
        assertThat(tenants.mayRead(new MemoryNamespace("acme", "bot", "alice", null, null, null)))
                .isTrue();
        assertThat(tenants.mayRead(new MemoryNamespace("acme", "bot", null, null, null, null)))
                .as("an agent-wide episode has no user: not the token's user's")
                .isFalse();
    }

    @Test
    void anAgentScopedTokenFillsItsAgentAndRefusesAnother() throws Exception {
        Tenants tenants = as(null, "bot");
        assertThat(tenants.key("", null, "bob", "s")).isEqualTo(new ConversationKey("acme", "bot", "bob", "s"));
        assertThatThrownBy(() -> tenants.agentId("namespace.agentId", "other"))
                .isInstanceOfSatisfying(
                        OutOfScopeException.class, e -> assertThat(e.field()).isEqualTo("namespace.agentId"));
        assertThat(tenants.mayRead(new ConversationKey("acme", null, "bob", "s")))
                .as("the default agent is not the token's agent")
                .isFalse();
    }

    @Test
    void nothingIsAnsweredBeforeAuthentication() {
        Tenants tenants = new Tenants();
        assertThatThrownBy(tenants::current).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> tenants.userId("userId", "x")).isInstanceOf(IllegalStateException.class);
    }
}
