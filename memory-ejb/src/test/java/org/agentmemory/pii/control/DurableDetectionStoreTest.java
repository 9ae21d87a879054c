package org.agentmemory.pii.control;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.agentmemory.api.pii.Forgotten;
import org.agentmemory.api.pii.MessageRole;
import org.agentmemory.testsupport.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The durable PII store on real H2 and PostgreSQL (issue 34 item 2). "Two servers" are two persistence units over one
 * database, each with its own store instance, as two WildFly servers sharing a database would be: the integration suite
 * has one server per database, so the sharing is tested here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DurableDetectionStoreTest {

    private static final String EMAIL = "ann.secret@example.com";

    /** One database and the two "servers" on it. */
    record Shared(String name, DataSource db, EntityManagerFactory a, EntityManagerFactory b) {}

    private final List<Shared> databases = new ArrayList<>();

    @BeforeAll
    void start() {
        DataSource h2 = Databases.freshH2();
        databases.add(
                new Shared("h2", h2, Databases.unit("memory-hibernate", h2), Databases.unit("memory-hibernate", h2)));
        DataSource pg = Databases.freshPostgres("agent_memory_pii_test");
        databases.add(new Shared(
                "postgresql", pg, Databases.unit("memory-hibernate", pg), Databases.unit("memory-hibernate", pg)));
        DataSource elH2 = Databases.freshH2();
        databases.add(new Shared(
                "eclipselink-h2",
                elH2,
                Databases.unit("memory-eclipselink", elH2),
                Databases.unit("memory-eclipselink", elH2)));
        DataSource elPg = Databases.freshPostgres("agent_memory_pii_el_test");
        databases.add(new Shared(
                "eclipselink-postgresql",
                elPg,
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

    private static <T> T on(EntityManagerFactory emf, PiiCrypto crypto, Function<PiiThreads, T> work) {
        return Databases.inTransaction(
                emf,
                (EntityManager em) ->
                        work.apply(new PiiThreads(new DurableDetectionStore(em, crypto, java.time.Clock.systemUTC()))));
    }

    private static <T> T unchecked(Checked<T> work) {
        try {
            return work.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    interface Checked<T> {
        T get() throws Exception;
    }

    private static List<String> rows(DataSource db) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.getConnection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT tenant_id, user_id, thread_key, message_key, role, key_id, payload FROM pii_message"
                                + " WHERE tenant_id <> 'race'")) {
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= 7; i++) {
                    row.append(rs.getString(i)).append('|');
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    private static String sha256(String value) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void twoServersShareOneNumberingAndStoreNeitherValuesNorTheirPlainHashes(String name, Shared s) throws Exception {
        PiiCrypto crypto = PiiCrypto.of(PiiCryptoTest.PEPPER, PiiCryptoTest.KEY, null);
        ThreadKey thread = new ThreadKey("t", "alice", "shared-" + name);
        String first = on(
                        s.a(),
                        crypto,
                        t -> unchecked(() -> t.anonymize(
                                thread, "m1", "Mail " + EMAIL + " or bob@example.org", null, MessageRole.USER)))
                .text();
        String second = on(
                        s.b(),
                        crypto,
                        t -> unchecked(() -> t.anonymize(
                                thread,
                                "m2",
                                "bob@example.org then " + EMAIL.toUpperCase(),
                                null,
                                MessageRole.ASSISTANT)))
                .text();

        assertThat(first).isEqualTo("Mail <<EMAIL_1>> or <<EMAIL_2>>");
        assertThat(second).isEqualTo("<<EMAIL_2>> then <<EMAIL_1>>");
        assertThat(on(s.a(), crypto, t -> t.deanonymize(thread, "to <<EMAIL_1>>"))
                        .text())
                .isEqualTo("to " + EMAIL);
        assertThat(on(s.b(), crypto, t -> t.provenance(thread)).roles())
                .containsEntry(EMAIL, MessageRole.USER)
                .hasSize(2);
        assertThat(on(s.b(), crypto, t -> t.detections(thread, "m2")).detections())
                .hasSize(2);

        // This test's tenant only: the other tests write rows of their own tenants into the same database.
        List<String> rows =
                rows(s.db()).stream().filter(r -> r.startsWith("t|")).toList();
        assertThat(rows).hasSize(2);
        for (String row : rows) {
            assertThat(row.toLowerCase())
                    .doesNotContain("ann.secret")
                    .doesNotContain("bob@example")
                    .doesNotContain(sha256(EMAIL))
                    .doesNotContain(sha256("bob@example.org"))
                    .doesNotContain(thread.threadId())
                    .doesNotContain(sha256(thread.threadId()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void concurrentTurnsOnTwoServersNeverShareANumber(String name, Shared s) throws Exception {
        PiiCrypto crypto = PiiCrypto.of(PiiCryptoTest.PEPPER, PiiCryptoTest.KEY, null);
        ThreadKey thread = new ThreadKey("race", "erin", "race-" + name);
        on(s.a(), crypto, t -> unchecked(() -> t.anonymize(thread, "m0", "first@example.com", null, MessageRole.USER)));
        int turns = 8;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<String>> placeholders = new ArrayList<>();
            for (int i = 0; i < turns; i++) {
                EntityManagerFactory server = i % 2 == 0 ? s.a() : s.b();
                String text = "mail racer" + i + "@example.com";
                placeholders.add(pool.submit(() -> on(
                                server,
                                crypto,
                                t -> unchecked(() -> t.anonymize(thread, null, text, null, MessageRole.USER)))
                        .detections()
                        .get(0)
                        .placeholder()));
            }
            java.util.Set<String> distinct = new java.util.HashSet<>();
            for (var p : placeholders) {
                distinct.add(p.get());
            }
            assertThat(distinct).hasSize(turns).doesNotContain("<<EMAIL_1>>");
        } finally {
            pool.shutdownNow();
        }
    }

    /** What {@code PiiMemoryBean} does before a write: the thread's lock row, committed in a transaction of its own. */
    private static void lockRow(EntityManagerFactory emf, PiiCrypto crypto, ThreadKey thread) {
        try {
            Databases.inTransaction(emf, (EntityManager em) -> {
                DurableDetectionStore store = new DurableDetectionStore(em, crypto, java.time.Clock.systemUTC());
                if (!store.hasThreadLock(thread)) {
                    store.createThreadLock(thread);
                }
                return null;
            });
        } catch (jakarta.persistence.PersistenceException createdConcurrently) {
            // the unique key refused a second row; the first one is there to lock
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void concurrentFirstMessagesOfAThreadNeverShareANumber(String name, Shared s) throws Exception {
        PiiCrypto crypto = PiiCrypto.of(PiiCryptoTest.PEPPER, PiiCryptoTest.KEY, null);
        int turns = 8;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(turns);
        try {
            for (int round = 0; round < 3; round++) {
                ThreadKey thread = new ThreadKey("race", "fay", "first-" + name + "-" + round);
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(turns);
                List<java.util.concurrent.Future<String>> placeholders = new ArrayList<>();
                for (int i = 0; i < turns; i++) {
                    EntityManagerFactory server = i % 2 == 0 ? s.a() : s.b();
                    String text = "mail first" + i + "@example.com";
                    placeholders.add(pool.submit(() -> {
                        start.await();
                        lockRow(server, crypto, thread);
                        return on(
                                        server,
                                        crypto,
                                        t -> unchecked(() -> t.anonymize(thread, null, text, null, MessageRole.USER)))
                                .detections()
                                .get(0)
                                .placeholder();
                    }));
                }
                java.util.Set<String> distinct = new java.util.HashSet<>();
                for (var p : placeholders) {
                    distinct.add(p.get());
                }
                assertThat(distinct).as("round " + round).hasSize(turns);
                assertThat(count(s.db(), "pii_thread", thread))
                        .as("one lock row per thread")
                        .isEqualTo(round + 1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static long count(DataSource db, String table, ThreadKey thread) throws Exception {
        try (Connection c = db.getConnection();
                var st = c.prepareStatement("SELECT count(*) FROM " + table + " WHERE tenant_id = ? AND user_id = ?")) {
            st.setString(1, thread.tenantId());
            st.setString(2, thread.userId());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void forgettingDropsTheLockRowsAndRecordsTheUsersErasureWithoutTheUserId(String name, Shared s) throws Exception {
        PiiCrypto crypto = PiiCrypto.of(PiiCryptoTest.PEPPER, PiiCryptoTest.KEY, null);
        ThreadKey one = new ThreadKey("locks-" + name, "gus", "one");
        ThreadKey two = new ThreadKey("locks-" + name, "gus", "two");
        for (ThreadKey thread : List.of(one, two)) {
            lockRow(s.a(), crypto, thread);
            on(s.a(), crypto, t -> unchecked(() -> t.anonymize(thread, "m", "x@example.com", null, MessageRole.USER)));
        }
        assertThat(count(s.db(), "pii_thread", one)).isEqualTo(2);

        on(s.b(), crypto, t -> t.forget(one));
        assertThat(count(s.db(), "pii_thread", one)).isEqualTo(1);

        UserErasure erased = Databases.inTransaction(
                s.b(),
                (EntityManager em) -> new DurableDetectionStore(em, crypto, java.time.Clock.systemUTC())
                        .forgetUser(one.tenantId(), "gus"));
        assertThat(erased).isEqualTo(new UserErasure(1, 1));
        assertThat(count(s.db(), "pii_thread", one)).isZero();
        try (Connection c = s.db().getConnection();
                var st = c.prepareStatement("SELECT user_key FROM pii_erasure WHERE tenant_id = ?")) {
            st.setString(1, one.tenantId());
            try (ResultSet rs = st.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1))
                        .isEqualTo(crypto.userKey(one.tenantId(), "gus"))
                        .doesNotContain("gus")
                        .hasSize(64);
                assertThat(rs.next()).isFalse();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void rotatesTheKeyAndRekeysRowsStoredInClear(String name, Shared s) throws Exception {
        PiiCrypto oldCrypto = PiiCrypto.of(PiiCryptoTest.PEPPER, PiiCryptoTest.KEY, null);
        PiiCrypto plain = PiiCrypto.plain();
        ThreadKey sealed = new ThreadKey("rot", "u", "sealed-" + name);
        ThreadKey clear = new ThreadKey("rot", "u", "clear-" + name);
        on(s.a(), oldCrypto, t -> unchecked(() -> t.anonymize(sealed, "m", "to " + EMAIL, null, MessageRole.USER)));
        on(s.a(), plain, t -> unchecked(() -> t.anonymize(clear, "m", "to " + EMAIL, null, MessageRole.USER)));
        assertThat(rows(s.db())).anySatisfy(r -> assertThat(r).contains(EMAIL));

        PiiCrypto rotated = PiiCrypto.of(PiiCryptoTest.PEPPER, PiiCryptoTest.NEW_KEY, PiiCryptoTest.KEY);
        assertThat(on(s.b(), rotated, t -> t.deanonymize(sealed, "<<EMAIL_1>>")).text())
                .isEqualTo(EMAIL);
        int rewritten = Databases.inTransaction(
                s.b(), em -> new DurableDetectionStore(em, rotated, java.time.Clock.systemUTC()).reencrypt("rot", 500));
        assertThat(rewritten).isEqualTo(2);
        int again = Databases.inTransaction(
                s.b(), em -> new DurableDetectionStore(em, rotated, java.time.Clock.systemUTC()).reencrypt("rot", 500));
        assertThat(again).isZero();

        PiiCrypto newOnly = PiiCrypto.of(PiiCryptoTest.PEPPER, PiiCryptoTest.NEW_KEY, null);
        assertThat(on(s.a(), newOnly, t -> t.deanonymize(sealed, "<<EMAIL_1>>")).text())
                .isEqualTo(EMAIL);
        assertThat(on(s.a(), newOnly, t -> t.deanonymize(clear, "<<EMAIL_1>>")).text())
                .isEqualTo(EMAIL);
        assertThat(rows(s.db())).noneSatisfy(r -> assertThat(r).contains(EMAIL));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aClearRowSupersededUnderKeysIsDroppedByTheReencryption(String name, Shared s) throws Exception {
        ThreadKey twice = new ThreadKey("twin", "u", "twice-" + name);
        on(
                s.a(),
                PiiCrypto.plain(),
                t -> unchecked(() -> t.anonymize(twice, "m", "to " + EMAIL, null, MessageRole.USER)));
        PiiCrypto keyed = PiiCrypto.of(PiiCryptoTest.PEPPER, PiiCryptoTest.KEY, null);
        // The same message remembered again once keys are set: a hashed row beside the clear one.
        on(s.a(), keyed, t -> unchecked(() -> t.anonymize(twice, "m", "to " + EMAIL, null, MessageRole.USER)));
        int rewritten = Databases.inTransaction(
                s.b(), em -> new DurableDetectionStore(em, keyed, java.time.Clock.systemUTC()).reencrypt("twin", 500));
        assertThat(rewritten).isEqualTo(1);
        int again = Databases.inTransaction(
                s.b(), em -> new DurableDetectionStore(em, keyed, java.time.Clock.systemUTC()).reencrypt("twin", 500));
        assertThat(again).isZero();
        assertThat(rows(s.db())).noneSatisfy(r -> assertThat(r).contains(EMAIL));
        assertThat(on(s.b(), keyed, t -> t.deanonymize(twice, "<<EMAIL_1>>")).text())
                .isEqualTo(EMAIL);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void forgetsAThreadAndAUserWithCounts(String name, Shared s) {
        PiiCrypto crypto = PiiCrypto.of(PiiCryptoTest.PEPPER, PiiCryptoTest.KEY, null);
        ThreadKey one = new ThreadKey("fg", "carol", "one-" + name);
        ThreadKey two = new ThreadKey("fg", "carol", "two-" + name);
        ThreadKey dave = new ThreadKey("fg", "dave", "one-" + name);
        for (ThreadKey thread : List.of(one, two, dave)) {
            on(
                    s.a(),
                    crypto,
                    t -> unchecked(
                            () -> t.anonymize(thread, "m1", "a@example.com b@example.com", null, MessageRole.USER)));
            on(s.a(), crypto, t -> unchecked(() -> t.anonymize(thread, "m2", "nothing here", null, MessageRole.USER)));
        }
        Forgotten first = on(s.b(), crypto, t -> t.forget(one));
        Forgotten second = on(s.b(), crypto, t -> t.forget(one));
        assertThat(first).isEqualTo(new Forgotten(2, 2));
        assertThat(second).isEqualTo(new Forgotten(0, 0));
        UserErasure user = Databases.inTransaction(
                s.b(),
                em -> new DurableDetectionStore(em, crypto, java.time.Clock.systemUTC()).forgetUser("fg", "carol"));
        assertThat(user).isEqualTo(new UserErasure(1, 2));
        assertThat(on(s.a(), crypto, t -> t.detections(dave, null)).detections())
                .hasSize(2);
        assertThat(on(s.a(), crypto, t -> t.detections(new ThreadKey("other", "dave", dave.threadId()), null))
                        .detections())
                .as("another tenant does not see the thread")
                .isEmpty();
    }
}
