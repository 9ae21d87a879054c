package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agentmemory.api.conversation.ConversationKey;
import org.junit.jupiter.api.Test;

class ConversationIdCacheTest {

    private static ConversationKey key(String session) {
        return ConversationKey.of(null, "u", session);
    }

    @Test
    void remembersUpToItsCapacityAndForgetsTheLeastRecentlyUsedFirst() {
        ConversationIdCache cache = new ConversationIdCache(2);
        cache.put(key("a"), 1);
        cache.put(key("b"), 2);
        assertThat(cache.get(key("a"))).isEqualTo(1L); // a is now the most recently used
        cache.put(key("c"), 3);
        assertThat(cache.get(key("b"))).isNull();
        assertThat(cache.get(key("a"))).isEqualTo(1L);
        assertThat(cache.get(key("c"))).isEqualTo(3L);
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void keysDifferingOnlyInChatbotOrEscapingAreDistinctAndRemoveForgets() {
        ConversationIdCache cache = new ConversationIdCache(10);
        cache.put(ConversationKey.of(null, "u", "a/b"), 1);
        cache.put(ConversationKey.of("bot", "u", "a/b"), 2);
        cache.put(ConversationKey.of(null, "u", "a%2Fb"), 3);
        assertThat(cache.get(ConversationKey.of(null, "u", "a/b"))).isEqualTo(1L);
        assertThat(cache.get(ConversationKey.of("bot", "u", "a/b"))).isEqualTo(2L);
        assertThat(cache.get(ConversationKey.of(null, "u", "a%2Fb"))).isEqualTo(3L);
        cache.put(ConversationKey.of(null, "u", "a/b"), 4);
        assertThat(cache.get(ConversationKey.of(null, "u", "a/b"))).isEqualTo(4L);
        cache.remove(ConversationKey.of(null, "u", "a/b"));
        assertThat(cache.get(ConversationKey.of(null, "u", "a/b"))).isNull();
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void aCapacityBelowOneIsRejected() {
        assertThatThrownBy(() -> new ConversationIdCache(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
