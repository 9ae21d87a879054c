package org.agentmemory.health;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
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

    @Resource(lookup = "java:jboss/datasources/MemoryDS")
    DataSource dataSource;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("memory-database");
        long start = System.nanoTime();
        try (Connection connection = dataSource.getConnection()) {
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
}
