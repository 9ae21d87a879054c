package org.agentmemory.working.boundary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Stream;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.working.MemoryTier;
import org.agentmemory.api.working.StoredWorkingItem;
import org.agentmemory.api.working.WorkingItem;
import org.agentmemory.api.working.WorkingItemChange;
import org.agentmemory.api.working.WorkingSessionRef;
import org.agentmemory.testsupport.Databases;
import org.agentmemory.working.control.TierPolicy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The working-memory store on real H2 and PostgreSQL, with the migrations of {@code sql/}: eviction and promotion
 * persisted, and the session lock under concurrent writers. "Two servers" are two persistence units over one
 * database, as two WildFly servers sharing it would be. The search index is disabled in these units (the integration
 * tests search inside WildFly).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkingStoreTest {

    /** One database and the two "servers" on it. */
    record Shared(String name, EntityManagerFactory a, EntityManagerFactory b) {}

    private final List<Shared> databases = new ArrayList<>();
    private int sessions;

    @BeforeAll
    void start() {
        var h2 = Databases.freshH2();
        databases.add(new Shared("h2", Databases.unit("memory-hibernate", h2), Databases.unit("memory-hibernate", h2)));
        var pg = Databases.freshPostgres("agent_memory_working_test");
        databases.add(new Shared(
                "postgresql", Databases.unit("memory-hibernate", pg), Databases.unit("memory-hibernate", pg)));
        var elH2 = Databases.freshH2();
        databases.add(new Shared(
                "eclipselink-h2",
                Databases.unit("memory-eclipselink", elH2),
                Databases.unit("memory-eclipselink", elH2)));
        var elPg = Databases.freshPostgres("agent_memory_working_el_test");
        databases.add(new Shared(
                "eclipselink-postgresql",
                Databases.unit("memory-eclipselink", elPg),
                Databases.unit("memory-eclipselink", elPg)));
    }

    @AfterAll
    void stop() {
        for (Shared s : databases) {
            s.a().close();
            s.b().close();
        }
    }

    Stream<Arguments> databases() {
        return databases.stream().map(s -> Arguments.of(s.name(), s));
    }

    private WorkingSessionRef session(String tenant) {
        return new WorkingSessionRef(tenant, "agent/" + (++sessions), "session " + sessions);
    }

    /** The bean's opener: a transaction of its own; a unique-key violation means another writer opened it. */
    private static void open(EntityManagerFactory emf, WorkingSessionRef session) {
        try {
            Databases.inTransaction(emf, em -> WorkingStore.open(em, session));
        } catch (PersistenceException raced) {
            // the row exists now
        }
    }

    private static <T> T on(EntityManagerFactory emf, Function<WorkingStore, T> work) {
        return Databases.inTransaction(
                emf, (EntityManager em) -> work.apply(new WorkingStore(em, TierPolicy.SEED, s -> open(emf, s))));
    }

    private static StoredWorkingItem store(EntityManagerFactory emf, WorkingSessionRef s, String text, double imp) {
        return on(emf, st -> st.store(s, text, Map.of("n", text), imp, false));
    }

    private static WorkingItem get(EntityManagerFactory emf, WorkingSessionRef s, long id) {
        return on(emf, st -> {
            try {
                return st.get(s, id);
            } catch (NotFoundException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static List<WorkingItem> all(EntityManagerFactory emf, WorkingSessionRef s, MemoryTier tier) {
        return on(emf, st -> st.retrieve(s, Map.of(), tier, null, 100));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theTwentyFirstShortTermItemEvictsTheOldest(String name, Shared db) {
        WorkingSessionRef s = session("t1");
        List<Long> ids = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            StoredWorkingItem stored = store(db.a(), s, "note " + i, 0.5);
            assertThat(stored.evicted()).isEmpty();
            ids.add(stored.item().itemId());
        }
        StoredWorkingItem twentyFirst = store(db.b(), s, "note 21", 0.5);
        assertThat(twentyFirst.evicted()).containsExactly(ids.get(0));
        List<WorkingItem> shortTerm = all(db.a(), s, MemoryTier.SHORT_TERM);
        assertThat(shortTerm).hasSize(20);
        assertThat(shortTerm.get(0).content()).isEqualTo("note 21");
        assertThat(shortTerm).extracting(WorkingItem::content).doesNotContain("note 1");
        long evicted = ids.get(0);
        assertThatThrownBy(() -> on(db.a(), st -> {
                    try {
                        return st.get(s, evicted);
                    } catch (NotFoundException e) {
                        throw new IllegalStateException(e);
                    }
                }))
                .hasCauseInstanceOf(NotFoundException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anImportantItemSkipsShortTermAndIsNeverEvicted(String name, Shared db) {
        WorkingSessionRef s = session("t1");
        long important = store(db.a(), s, "key fact", 0.9).item().itemId();
        for (int i = 1; i <= 25; i++) {
            store(db.a(), s, "note " + i, 0.1);
        }
        assertThat(all(db.a(), s, MemoryTier.LONG_TERM))
                .extracting(WorkingItem::itemId)
                .containsExactly(important);
        assertThat(all(db.a(), s, MemoryTier.SHORT_TERM)).hasSize(20);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theThirdReadPromotesOnceAndThePromotionIsPersisted(String name, Shared db) {
        WorkingSessionRef s = session("t1");
        long id = store(db.a(), s, "read me", 0.5).item().itemId();
        assertThat(get(db.a(), s, id).tier()).isEqualTo(MemoryTier.SHORT_TERM);
        assertThat(get(db.b(), s, id).tier()).isEqualTo(MemoryTier.SHORT_TERM);
        WorkingItem third = get(db.a(), s, id);
        assertThat(third.tier()).isEqualTo(MemoryTier.LONG_TERM);
        assertThat(third.accessCount()).isEqualTo(3);
        assertThat(third.promotedAt()).isNotNull();
        WorkingItem fourth = get(db.b(), s, id);
        assertThat(fourth.promotedAt()).isEqualTo(third.promotedAt());
        assertThat(fourth.accessCount()).isEqualTo(4);
        assertThat(all(db.a(), s, null)).extracting(WorkingItem::itemId).containsExactly(id);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void raisingTheImportancePromotes(String name, Shared db) {
        WorkingSessionRef s = session("t1");
        long id = store(db.a(), s, "becomes important", 0.5).item().itemId();
        WorkingItem changed = on(db.b(), st -> {
            try {
                return st.update(s, id, new WorkingItemChange("now important", null, 0.75));
            } catch (NotFoundException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(changed.tier()).isEqualTo(MemoryTier.LONG_TERM);
        assertThat(changed.content()).isEqualTo("now important");
        assertThat(changed.metadata()).containsEntry("n", "becomes important");
        assertThat(all(db.a(), s, MemoryTier.LONG_TERM))
                .extracting(WorkingItem::importance)
                .containsExactly(0.75);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anotherTenantAgentOrSessionSeesNothing(String name, Shared db) {
        WorkingSessionRef mine = session("t1");
        long id = store(db.a(), mine, "mine", 0.5).item().itemId();
        for (WorkingSessionRef other : List.of(
                new WorkingSessionRef("t2", mine.agentId(), mine.sessionId()),
                new WorkingSessionRef("t1", mine.agentId() + "x", mine.sessionId()),
                new WorkingSessionRef("t1", mine.agentId(), mine.sessionId() + "x"))) {
            assertThat(all(db.a(), other, null)).isEmpty();
            assertThatThrownBy(() -> get(db.a(), other, id)).hasCauseInstanceOf(NotFoundException.class);
            assertThat(on(db.a(), st -> st.summary(other)).text()).isEqualTo("No context available.");
        }
        assertThat(get(db.a(), mine, id).accessCount())
                .as("the others' reads did not count")
                .isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void concurrentWritersOnTwoServersNeverExceedTheCapacityNorLoseAnAccess(String name, Shared db) throws Exception {
        WorkingSessionRef s = session("t1");
        int writers = 8;
        int each = 10;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<StoredWorkingItem>>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                EntityManagerFactory emf = w % 2 == 0 ? db.a() : db.b();
                int writer = w;
                Callable<List<StoredWorkingItem>> task = () -> {
                    go.await();
                    List<StoredWorkingItem> out = new ArrayList<>();
                    for (int i = 0; i < each; i++) {
                        out.add(store(emf, s, "w" + writer + " n" + i, 0.5));
                    }
                    return out;
                };
                futures.add(pool.submit(task));
            }
            go.countDown();
            Set<Long> stored = new HashSet<>();
            List<Long> evicted = new ArrayList<>();
            for (Future<List<StoredWorkingItem>> f : futures) {
                for (StoredWorkingItem item : f.get()) {
                    stored.add(item.item().itemId());
                    evicted.addAll(item.evicted());
                }
            }
            assertThat(stored).hasSize(writers * each);
            assertThat(evicted).doesNotHaveDuplicates().hasSize(writers * each - 20);
            List<WorkingItem> left = all(db.a(), s, MemoryTier.SHORT_TERM);
            assertThat(left).hasSize(20);
            assertThat(left).extracting(WorkingItem::itemId).doesNotContainAnyElementsOf(evicted);

            long target = left.get(0).itemId();
            CountDownLatch read = new CountDownLatch(1);
            List<Future<WorkingItem>> reads = new ArrayList<>();
            for (int r = 0; r < writers; r++) {
                EntityManagerFactory emf = r % 2 == 0 ? db.a() : db.b();
                reads.add(pool.submit(() -> {
                    read.await();
                    return get(emf, s, target);
                }));
            }
            read.countDown();
            Set<Long> counts = new HashSet<>();
            for (Future<WorkingItem> f : reads) {
                counts.add(f.get().accessCount());
            }
            assertThat(counts).as("each read saw its own count").hasSize(writers);
            WorkingItem after = all(db.a(), s, MemoryTier.LONG_TERM).get(0);
            assertThat(after.itemId()).isEqualTo(target);
            assertThat(after.accessCount()).isEqualTo(writers);
        } finally {
            pool.shutdownNow();
        }
    }
}
