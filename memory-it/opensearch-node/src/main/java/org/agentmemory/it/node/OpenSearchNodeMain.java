package org.agentmemory.it.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * Runs one OpenSearch 2.19.1 node until the process is stopped: HTTP on the given port of 127.0.0.1, single-node
 * discovery, data under the given directory (kept when the node stops, so that a node started again on the same
 * directory has the same indexes), the k-NN plugin and, when its classes are on the class path, the neural-search
 * plugin. Prints {@code OPENSEARCH READY <http port> plugins=<names>} once the cluster is yellow.
 *
 * <p>Arguments: {@code <http port> <transport port> <data directory> [cluster name]}. {@code SIGTERM} closes the
 * node (its shutdown hook); {@code SIGKILL} is a crash.
 */
public final class OpenSearchNodeMain {

    private static final String KNN = "org.opensearch.knn.plugin.KNNPlugin";
    private static final String NEURAL = "org.opensearch.neuralsearch.plugin.NeuralSearch";

    private OpenSearchNodeMain() {}

    /**
     * @param args HTTP port, transport port, data directory, optional cluster name
     * @throws Exception when the node does not start
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: OpenSearchNodeMain <http port> <transport port> <data dir> [cluster name]");
            System.exit(2);
        }
        int httpPort = Integer.parseInt(args[0]);
        int transportPort = Integer.parseInt(args[1]);
        Path data = Path.of(args[2]);
        String cluster = args.length > 3 ? args[3] : "agent-memory-it";
        Files.createDirectories(data);
        List<String> plugins = new ArrayList<>(List.of(KNN));
        if (present(NEURAL)) {
            plugins.add(NEURAL);
        }
        OpenSearchRunner runner = new OpenSearchRunner();
        runner.onBuild((index, settings) -> {
            settings.put("http.port", httpPort);
            settings.put("transport.port", transportPort);
            settings.put("network.host", "127.0.0.1");
            settings.put("discovery.type", "single-node");
            // A nearly full build disk must not turn the indexes read-only in the middle of a test.
            settings.put("cluster.routing.allocation.disk.threshold_enabled", false);
        });
        runner.build(new OpenSearchRunner.Configs()
                .basePath(data.toString())
                .numOfNode(1)
                .clusterName(cluster)
                .pluginTypes(String.join(",", plugins))
                .useLogger());
        runner.ensureYellow();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                runner.close();
                            } catch (IOException e) {
                                e.printStackTrace();
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "close OpenSearch node"));
        System.out.println("OPENSEARCH READY " + httpPort + " plugins=" + String.join(",", plugins));
        System.out.flush();
        stopped.await();
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, OpenSearchNodeMain.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
