package org.agentmemory.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real OpenSearch 2.19.1 node (with the k-NN and neural-search plugins) as a process of its own, from the class
 * path that {@code memory-it/opensearch-node} writes at package: the scale-out tests start it, stop it to take the
 * search engine away from the WildFly servers, and start it again on the same data directory. A JVM shutdown hook
 * kills a node the test left running.
 */
public final class OpenSearchProcess {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Path nodeTarget;
    private final Path data;
    private final Path log;
    private final int httpPort = freePort();
    private final int transportPort = freePort();
    private Process process;

    /**
     * @param nodeTarget {@code memory-it/opensearch-node/target} (its jar, dependency class path and plugins)
     * @param data       the node's data directory, kept between starts
     */
    public OpenSearchProcess(Path nodeTarget, Path data) {
        this.nodeTarget = nodeTarget;
        this.data = data;
        this.log = data.resolveSibling(data.getFileName() + ".log");
        Runtime.getRuntime().addShutdownHook(new Thread(this::kill, "kill OpenSearch node"));
    }

    /** @return the node of this suite ({@code it.opensearch.node.target}, data in {@code it.opensearch.data}) */
    public static OpenSearchProcess forSuite() {
        return new OpenSearchProcess(
                Path.of(System.getProperty("it.opensearch.node.target")),
                Path.of(System.getProperty("it.opensearch.data")));
    }

    /** @return the node's HTTP address, e.g. {@code http://127.0.0.1:41234} */
    public String uri() {
        return "http://127.0.0.1:" + httpPort;
    }

    /**
     * Starts the node and waits until its cluster is yellow.
     *
     * @param timeout how long to wait
     * @return how long the start took
     * @throws IllegalStateException when the node exits or does not answer in time (the log's tail in the message)
     */
    public Duration start(Duration timeout) {
        Instant started = Instant.now();
        try {
            Files.createDirectories(data);
            ProcessBuilder builder = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xms256m",
                            "-Xmx512m",
                            "-da",
                            "-cp",
                            classPath(),
                            "org.agentmemory.it.node.OpenSearchNodeMain",
                            Integer.toString(httpPort),
                            Integer.toString(transportPort),
                            data.toString(),
                            "agent-memory-scale-it")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Instant deadline = started.plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the OpenSearch node exited with " + process.exitValue() + ":\n" + tail());
            }
            try {
                HttpResponse<String> health = get("/_cluster/health?wait_for_status=yellow&timeout=1s");
                if (health.statusCode() == 200) {
                    return Duration.between(started, Instant.now());
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            pause(500);
        }
        throw new IllegalStateException("the OpenSearch node did not start within " + timeout + ":\n" + tail());
    }

    /**
     * Deletes the node's data directory (before a first start: a run starts from empty indexes, as its database).
     *
     * @throws IllegalStateException when the node is running
     */
    public void deleteData() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the OpenSearch node is running");
        }
        if (!Files.exists(data)) {
            return;
        }
        try (Stream<Path> all = Files.walk(data)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the node ({@code SIGTERM}, a clean close) and waits until the process is gone. */
    public void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void kill() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
        }
    }

    /**
     * Refreshes an index and counts its documents, straight from the node (not through the service).
     *
     * @param index a Hibernate Search index name, e.g. {@code turn_message}
     * @return the number of documents in the index (its read alias)
     */
    public long count(String index) {
        try {
            post("/" + index + "-read/_refresh");
            HttpResponse<String> r = get("/" + index + "-read/_count");
            if (r.statusCode() != 200) {
                throw new IllegalStateException("_count of " + index + " answered " + r.statusCode() + ": " + r.body());
            }
            JsonNode body = Api.JSON.readTree(r.body());
            return body.get("count").asLong();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param path a path of the node's REST API, e.g. {@code /_cat/plugins}
     * @return the node's answer
     * @throws IOException when the node does not answer
     */
    public HttpResponse<String> get(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(uri() + path)).GET());
    }

    private HttpResponse<String> post(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(uri() + path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private String classPath() throws IOException {
        List<String> entries = new ArrayList<>();
        try (Stream<Path> jars = Files.list(nodeTarget)) {
            jars.filter(p -> p.getFileName().toString().startsWith("memory-it-opensearch-node")
                            && p.toString().endsWith(".jar"))
                    .forEach(p -> entries.add(p.toString()));
        }
        entries.add(
                Files.readString(nodeTarget.resolve("dependency-classpath.txt")).strip());
        try (Stream<Path> plugins = Files.walk(nodeTarget.resolve("opensearch-plugins"))) {
            plugins.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> entries.add(p.toString()));
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    /** @return the last lines of the node's log */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
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

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
