package org.agentmemory.pii.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.Forgotten;
import org.agentmemory.api.pii.MessageRole;
import org.junit.jupiter.api.Test;

/** The in-process store's bounds (issue 34 item 2, seed 002 {@code InMemoryConversationMemory}). */
class InProcessDetectionStoreTest {

    private final TestClock clock = new TestClock();

    private static ThreadKey thread(String id) {
        return new ThreadKey("t", "u", id);
    }

    private static List<Detection> one(String value) {
        return List.of(new Detection("PERSON", value, 0, value.length(), 1.0, "<<PERSON_1>>"));
    }

    @Test
    void evictsTheLeastRecentlyUsedThreadBeyondTheBound() {
        InProcessDetectionStore store = new InProcessDetectionStore(2, null, clock);
        store.remember(thread("a"), "m", one("Ann"), MessageRole.USER);
        store.remember(thread("b"), "m", one("Bob"), MessageRole.USER);
        store.messages(thread("a")); // a is now more recent than b
        store.remember(thread("c"), "m", one("Cid"), MessageRole.USER);

        assertThat(store.size()).isEqualTo(2);
        assertThat(store.messages(thread("b"))).isEmpty();
        assertThat(store.messages(thread("a"))).hasSize(1);
        assertThat(store.messages(thread("c"))).hasSize(1);
    }

    @Test
    void boundsDefaultToTenThousandThreadsAndOneDay() {
        assertThat(InProcessDetectionStore.DEFAULT_MAX_THREADS).isEqualTo(10_000);
        assertThat(InProcessDetectionStore.DEFAULT_TTL).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void zeroLiftsTheThreadBound() {
        InProcessDetectionStore store = new InProcessDetectionStore(0, null, clock);
        for (int i = 0; i < 50; i++) {
            store.remember(thread("x" + i), "m", one("Ann"), MessageRole.USER);
        }
        assertThat(store.size()).isEqualTo(50);
    }

    @Test
    void anIdleThreadExpiresOnItsNextAccess() {
        InProcessDetectionStore store = new InProcessDetectionStore(10, Duration.ofHours(1), clock);
        store.remember(thread("a"), "m", one("Ann"), MessageRole.USER);
        store.remember(thread("b"), "m", one("Bob"), MessageRole.USER);
        clock.advance(Duration.ofMinutes(59));
        assertThat(store.messages(thread("a"))).hasSize(1); // touched: idle time restarts
        clock.advance(Duration.ofMinutes(2));

        assertThat(store.size())
                .as("expiry happens on access, not in the background")
                .isEqualTo(2);
        assertThat(store.messages(thread("b"))).isEmpty();
        assertThat(store.messages(thread("a"))).hasSize(1);
        assertThat(store.size()).isEqualTo(1);
        assertThat(store.forget(thread("b"))).isEqualTo(new Forgotten(0, 0));
    }

    @Test
    void withoutATimeToLiveNothingExpires() {
        InProcessDetectionStore store = new InProcessDetectionStore(10, Duration.ZERO, clock);
        store.remember(thread("a"), "m", one("Ann"), MessageRole.USER);
        clock.advance(Duration.ofDays(365));
        assertThat(store.messages(thread("a"))).hasSize(1);
    }

    @Test
    void forgetsEveryThreadOfOneUserOnly() {
        InProcessDetectionStore store = new InProcessDetectionStore(10, null, clock);
        store.remember(new ThreadKey("t", "alice", "1"), "m", one("Ann"), MessageRole.USER);
        store.remember(new ThreadKey("t", "alice", "2"), "m", List.of(), MessageRole.USER);
        store.remember(new ThreadKey("t", "alice", "2"), "n", one("Bob"), MessageRole.USER);
        store.remember(new ThreadKey("t", "bob", "1"), "m", one("Ann"), MessageRole.USER);
        store.remember(new ThreadKey("other", "alice", "1"), "m", one("Ann"), MessageRole.USER);

        assertThat(store.forgetUser("t", "alice")).isEqualTo(new UserErasure(2, 2));
        assertThat(store.forgetUser("t", "alice")).isEqualTo(new UserErasure(0, 0));
        assertThat(store.messages(new ThreadKey("t", "bob", "1"))).hasSize(1);
        assertThat(store.messages(new ThreadKey("other", "alice", "1"))).hasSize(1);
    }

    @Test
    void aThreadCreatedBeforeItsUsersNewestErasureIsDroppedBeforeItIsServed() {
        InProcessDetectionStore store = new InProcessDetectionStore(10, null, clock);
        store.asOf(0).remember(thread("a"), "m", one("Ann"), MessageRole.USER);
        store.asOf(0).remember(thread("b"), "m", one("Bob"), MessageRole.USER);

        // another server erased the user: erasure 3 is the newest the database knows
        DetectionStore afterErasure = store.asOf(3);
        assertThat(afterErasure.messages(thread("a"))).isEmpty();
        assertThat(afterErasure.forget(thread("b"))).isEqualTo(new Forgotten(0, 0));
        assertThat(store.size()).isZero();

        // what the user says after the erasure is kept under the erasure it was created after
        afterErasure.remember(thread("a"), "m2", one("Ann"), MessageRole.USER);
        assertThat(store.asOf(3).messages(thread("a"))).hasSize(1);
        assertThat(store.asOf(4).messages(thread("a"))).isEmpty();
    }

    @Test
    void forgetErasedDropsOnlyTheErasedUsersOlderThreadsOfThatTenant() {
        InProcessDetectionStore store = new InProcessDetectionStore(10, null, clock);
        store.asOf(0).remember(new ThreadKey("t", "ann", "1"), "m", one("Ann"), MessageRole.USER);
        store.asOf(0).remember(new ThreadKey("t", "ann", "2"), "m", one("Ann"), MessageRole.USER);
        store.asOf(0).remember(new ThreadKey("t", "bob", "1"), "m", one("Bob"), MessageRole.USER);
        store.asOf(0).remember(new ThreadKey("other", "ann", "1"), "m", one("Ann"), MessageRole.USER);
        store.asOf(5).remember(new ThreadKey("t", "ann", "3"), "m", one("Ann"), MessageRole.USER);

        java.util.function.BiFunction<String, String, String> key = (tenant, user) -> "key(" + user + ")";
        java.util.Map<String, Long> annErased = java.util.Map.of("t\nkey(ann)", 5L);
        assertThat(store.forgetErased(annErased, key)).isEqualTo(2);

        assertThat(store.messages(new ThreadKey("t", "ann", "1"))).isEmpty();
        assertThat(store.messages(new ThreadKey("t", "ann", "2"))).isEmpty();
        assertThat(store.messages(new ThreadKey("t", "ann", "3"))).hasSize(1);
        assertThat(store.messages(new ThreadKey("t", "bob", "1"))).hasSize(1);
        assertThat(store.messages(new ThreadKey("other", "ann", "1"))).hasSize(1);
        // polling the same erasure again drops nothing more
        assertThat(store.forgetErased(annErased, key)).isZero();
    }
}
