package org.agentmemory.testsupport;

import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.agentmemory.platform.schema.SchemaMigration;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Real databases for Java SE tests: a fresh in-memory H2 per call, and a fresh database on PostgreSQL: the embedded
 * server of this JVM ({@link EmbeddedPostgresServer#sharedPort()}), or, when {@code it.pg.existing} is true (the
 * build sets it for {@code -Dit.pg.host=…}), the server at it.pg.host/it.pg.port (user and password from
 * it.pg.user/it.pg.password).
 */
public final class Databases {

    private static final AtomicInteger H2_COUNTER = new AtomicInteger();
    private static final AtomicInteger UNIT_COUNTER = new AtomicInteger();

    private Databases() {}

    /** @return a migrated, empty in-memory H2 database */
    public static DataSource freshH2() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:memtest" + H2_COUNTER.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        SchemaMigration.migrate(ds, Databases.class.getClassLoader());
        return ds;
    }

    /**
     * @param name database name to (re)create
     * @return a migrated, empty PostgreSQL database
     */
    public static DataSource freshPostgres(String name) {
        boolean existing = Boolean.getBoolean("it.pg.existing");
        String host = existing ? System.getProperty("it.pg.host", "127.0.0.1") : "127.0.0.1";
        int port = existing
                ? Integer.parseInt(System.getProperty("it.pg.port", "5432"))
                : EmbeddedPostgresServer.sharedPort();
        String user = System.getProperty("it.pg.user", "postgres");
        String password = System.getProperty("it.pg.password", "");
        try (Connection admin = DriverManager.getConnection(
                        "jdbc:postgresql://" + host + ":" + port + "/postgres", user, password);
                Statement st = admin.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            st.execute("CREATE DATABASE " + name + " ENCODING 'UTF8'");
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "PostgreSQL at " + host + ":" + port + " is needed by this test ("
                            + (existing ? "the server named by -Dit.pg.host/-Dit.pg.port" : "the embedded one") + "); "
                            + e.getMessage(),
                    e);
        }
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {host});
        ds.setPortNumbers(new int[] {port});
        ds.setDatabaseName(name);
        ds.setUser(user);
        ds.setPassword(password);
        SchemaMigration.migrate(ds, Databases.class.getClassLoader());
        return ds;
    }

    /**
     * @param unit       {@code memory-hibernate} or {@code memory-eclipselink}
     * @param dataSource the database
     * @return a resource-local persistence unit over the production entities
     */
    public static EntityManagerFactory unit(String unit, DataSource dataSource) {
        Map<String, Object> props = new HashMap<>();
        props.put("jakarta.persistence.nonJtaDataSource", dataSource);
        // EclipseLink keeps one session per session name (by default the unit's name): two open units of one name
        // over two databases would share the first one's database.
        props.put("eclipselink.session-name", unit + "-" + UNIT_COUNTER.incrementAndGet());
        return Persistence.createEntityManagerFactory(unit, props);
    }

    /**
     * Runs {@code work} in a resource-local transaction of a new entity manager: committed when it returns,
     * rolled back when it throws.
     *
     * @param emf  the persistence unit
     * @param work what to do
     * @param <T>  the result type
     * @return what {@code work} returned
     */
    public static <T> T inTransaction(
            EntityManagerFactory emf, java.util.function.Function<jakarta.persistence.EntityManager, T> work) {
        jakarta.persistence.EntityManager em = emf.createEntityManager();
        try {
            em.getTransaction().begin();
            T result = work.apply(em);
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }
}
