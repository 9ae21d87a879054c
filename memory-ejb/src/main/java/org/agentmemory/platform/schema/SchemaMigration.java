package org.agentmemory.platform.schema;

import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Schema migration and validation, usable in the server and in plain Java tests.
 */
public final class SchemaMigration {

    /** Where the migrations are on the class path: one folder per database product. */
    public static final String LOCATION_PREFIX = "classpath:db/migration/";

    private SchemaMigration() {}

    /**
     * Applies pending migrations.
     *
     * @param dataSource  the database
     * @param classLoader the loader that sees {@code db/migration}
     * @return what Flyway did
     */
    public static MigrateResult migrate(DataSource dataSource, ClassLoader classLoader) {
        String location = LOCATION_PREFIX + vendor(dataSource);
        // Callbacks are looked up in the migrations' folder (there are none): Flyway's default, db/callback, does not
        // exist, which Open Liberty's class loader makes Flyway log as an ERROR on every start.
        return Flyway.configure(classLoader)
                .dataSource(dataSource)
                .locations(location)
                .callbackLocations(location)
                .failOnMissingLocations(true)
                .validateMigrationNaming(true)
                .load()
                .migrate();
    }

    /**
     * @param dataSource the database
     * @return {@code h2} or {@code postgresql}, the folder of its migrations
     * @throws IllegalStateException for any other product (the message names it)
     */
    public static String vendor(DataSource dataSource) {
        String product;
        try (Connection connection = dataSource.getConnection()) {
            product = connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot connect to the memory database: " + e.getMessage(), e);
        }
        String lower = product.toLowerCase(Locale.ROOT);
        if (lower.contains("h2")) {
            return "h2";
        }
        if (lower.contains("postgres")) {
            return "postgresql";
        }
        throw new IllegalStateException("The memory database is " + product
                + "; supported databases are H2 and PostgreSQL (migrations in sql/h2 and sql/postgresql).");
    }

    /**
     * Validates the mapped entities against the database when the provider is Hibernate (its schema
     * manager compares tables, columns and types); other providers have no such check and are skipped.
     *
     * @param emf the persistence unit
     * @throws RuntimeException (Hibernate's {@code SchemaManagementException}) naming the mismatch
     */
    public static void validate(EntityManagerFactory emf) {
        org.hibernate.SessionFactory sessionFactory;
        try {
            sessionFactory = emf.unwrap(org.hibernate.SessionFactory.class);
        } catch (RuntimeException | LinkageError notHibernate) {
            return;
        }
        sessionFactory.getSchemaManager().validateMappedObjects();
    }
}
