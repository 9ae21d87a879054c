package org.agentmemory.it.support;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The scale-out topology of the README (issue 36): a real OpenSearch node ({@link OpenSearchProcess}) and two WildFly
 * servers that the build configured with {@code config/wildfly/search-opensearch.cli} on a PostgreSQL database of
 * their own ({@code it.scale.pg.jdbc}), sharing the suite's PII pepper and key. Started here, node A first (it
 * migrates the database), and stopped by {@link #stop()}.
 */
public final class ScaleOutCluster {

    private static final Duration START = Duration.ofMinutes(4);

    private final OpenSearchProcess search;
    private final KillableServer nodeA;
    private final KillableServer nodeB;

    private ScaleOutCluster(OpenSearchProcess search) {
        this.search = search;
        this.nodeA = node("node-a", "it.node.a", search);
        this.nodeB = node("node-b", "it.node.b", search);
    }

    /**
     * Starts the OpenSearch node and both servers.
     *
     * @return the running cluster
     * @throws IllegalStateException when a part does not start (its log's tail in the message)
     */
    public static ScaleOutCluster start() {
        OpenSearchProcess search = OpenSearchProcess.forSuite();
        search.deleteData(); // the database is new too
        Duration searchStart = search.start(Duration.ofMinutes(2));
        ScaleOutCluster cluster = new ScaleOutCluster(search);
        Duration aStart = cluster.nodeA.start(START);
        Duration bStart = cluster.nodeB.start(START);
        System.out.printf(
                "[scale-out] OpenSearch started in %.1f s, node A in %.1f s, node B in %.1f s%n",
                searchStart.toMillis() / 1000.0, aStart.toMillis() / 1000.0, bStart.toMillis() / 1000.0);
        return cluster;
    }

    private static KillableServer node(String name, String prefix, OpenSearchProcess search) {
        return new KillableServer(
                name,
                Path.of(System.getProperty(prefix + ".home")),
                Integer.getInteger(prefix + ".offset"),
                System.getProperty("it.node.java.opts"),
                Map.of(
                        "MEMORY_DB_URL", jdbc(),
                        "MEMORY_DB_USER", System.getProperty("it.pg.user"),
                        "MEMORY_DB_PASSWORD", System.getProperty("it.pg.password", "postgres"),
                        "MEMORY_SEARCH_URIS", search.uri(),
                        "MEMORY_PII_PEPPER", System.getProperty("it.pii.pepper"),
                        "MEMORY_PII_KEY", System.getProperty("it.pii.key")));
    }

    /** @return the JDBC URL of the cluster's database */
    public static String jdbc() {
        return System.getProperty("it.scale.pg.jdbc");
    }

    /** @return the OpenSearch node */
    public OpenSearchProcess search() {
        return search;
    }

    /** @return server A (the one that migrated the database) */
    public KillableServer nodeA() {
        return nodeA;
    }

    /** @return server B */
    public KillableServer nodeB() {
        return nodeB;
    }

    /** Kills both servers and stops the OpenSearch node. */
    public void stop() {
        nodeA.kill();
        nodeB.kill();
        search.stop();
    }
}
