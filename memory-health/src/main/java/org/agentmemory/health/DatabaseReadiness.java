package org.agentmemory.health;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: the memory database answers a validity check within 2 seconds. Reported by the server's
 * MicroProfile Health endpoint ({@code /health/ready}; on WildFly on the management port 9990).
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    private static final int TIMEOUT_SECONDS = 2;

    /**
     * The memory database, by the JNDI name in {@code memory.datasource} (WildFly's java:jboss/datasources/MemoryDS by
     * default; Open Liberty's server.xml sets jdbc/MemoryDS, as Liberty cannot bind java:jboss/ names).
     */
    private volatile DataSource dataSource;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("memory-database");
        long start = System.nanoTime();
        DataSource database;
        try {
            database = dataSource();
        } catch (NamingException e) {
            return response.down()
                    .withData("error", "no datasource: " + e.getMessage())
                    .build();
        }
        try (Connection connection = database.getConnection()) {
            boolean valid = connection.isValid(TIMEOUT_SECONDS);
            response.withData("database", connection.getMetaData().getDatabaseProductName())
                    .withData("latencyMs", (System.nanoTime() - start) / 1_000_000);
            return valid
                    ? response.up().build()
                    : response.down().withData("error", "connection not valid").build();
        } catch (SQLException e) {
            return response.down()
                    .withData("error", e.getMessage() == null ? e.getClass().getName() : e.getMessage())
                    .build();
        }
    }

    private DataSource dataSource() throws NamingException {
        DataSource found = dataSource;
        if (found == null) {
            String name = ConfigProvider.getConfig()
                    .getOptionalValue("memory.datasource", String.class)
                    .orElse("java:jboss/datasources/MemoryDS")
                    .strip();
            found = InitialContext.doLookup(name);
            dataSource = found;
        }
        return found;
    }
}
