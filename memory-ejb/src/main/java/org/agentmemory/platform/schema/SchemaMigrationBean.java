package org.agentmemory.platform.schema;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.agentmemory.platform.persistence.MemoryDataSource;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Brings the database schema to the current version at start-up (Flyway, {@code sql/} in the repository),
 * then has the JPA provider validate the entity mapping against it. Deployment fails when either fails, so
 * the service never runs on a schema it does not match. Runs before any request: the deployment completes
 * only after this {@link Startup} singleton is constructed.
 *
 * <p>Bean-managed transactions: Flyway commits each migration on its own connection.
 */
@Singleton
@Startup
@TransactionManagement(TransactionManagementType.BEAN)
public class SchemaMigrationBean {

    private static final Logger LOG = Logger.getLogger(SchemaMigrationBean.class.getName());

    /** The memory database ({@link MemoryDataSource}: WildFly's or Liberty's name). */
    DataSource dataSource;

    @PersistenceUnit(unitName = "memory")
    EntityManagerFactory emf;

    @PostConstruct
    void migrateAndValidate() {
        dataSource = MemoryDataSource.lookup();
        MigrateResult result = SchemaMigration.migrate(dataSource, getClass().getClassLoader());
        LOG.info(() -> "Schema of the memory database is at version " + result.targetSchemaVersion + " ("
                + result.migrationsExecuted + " migrations applied now, database " + result.database + ")");
        SchemaMigration.validate(emf);
    }
}
