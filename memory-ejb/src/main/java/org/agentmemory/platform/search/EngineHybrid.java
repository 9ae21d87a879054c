package org.agentmemory.platform.search;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.agentmemory.platform.ranking.HybridPipeline;

/**
 * Decides whether hybrid recall runs on the search engine (issue 36 item 4): asks an OpenSearch cluster over its
 * REST API (JDK HTTP client, basic authentication when a user name is set) whether every node has the neural-search
 * plugin ({@code GET /_cat/nodes?h=id&full_id=true}, {@code GET /_cat/plugins?h=id,component}) and, if so, creates or
 * replaces the search pipeline ({@code PUT /_search/pipeline/<name>} with {@link HybridPipeline#body()}). Each
 * request goes to the first URI that answers.
 *
 * <p>A plugin counts as neural-search when its component name contains {@code neural-search} (an installed plugin,
 * {@code opensearch-neural-search}) or {@code neuralsearch} (a class-path plugin, named by its class). No container
 * types; thread-safe (stateless).
 */
public final class EngineHybrid {

    /** Mode: one {@code hybrid} query through the service's search pipeline. */
    public static final String ENGINE = "engine";
    /** Mode: two legs fused in the service (reciprocal rank or weighted fusion). */
    public static final String CLIENT_SIDE = "client-side";

    /** System property with the mode in effect, read by the readiness check ({@value #ENGINE} or {@value #CLIENT_SIDE}). */
    public static final String MODE_PROPERTY = "memory.search.hybrid";
    /** System property with why: the technique and pipeline, or why not the engine. */
    public static final String DETAIL_PROPERTY = "memory.search.hybrid.detail";

    /**
     * The outcome of a detection.
     *
     * @param mode        {@value #ENGINE} or {@value #CLIENT_SIDE}
     * @param pipeline    the pipeline hybrid queries name, or {@code null} client-side
     * @param detail      human-readable: technique and pipeline name, or the reason for client-side
     * @param unreachable whether no node answered (worth asking again later)
     */
    public record Decision(String mode, HybridPipeline pipeline, String detail, boolean unreachable) {

        /**
         * @param detail why hybrid recall is client-side
         * @return a client-side decision that need not be asked again
         */
        public static Decision clientSide(String detail) {
            return new Decision(CLIENT_SIDE, null, detail, false);
        }

        /** @return whether hybrid recall runs on the engine */
        public boolean engine() {
            return ENGINE.equals(mode);
        }

        /** Publishes this decision as the system properties {@value #MODE_PROPERTY} and {@value #DETAIL_PROPERTY}. */
        public void publish() {
            System.setProperty(MODE_PROPERTY, mode);
            System.setProperty(DETAIL_PROPERTY, detail);
        }
    }

    private EngineHybrid() {}

    /**
     * @param uris     the cluster's URIs, comma-separated, e.g. {@code http://127.0.0.1:9200}
     * @param username user name for basic authentication, or {@code null}/blank for none
     * @param password its password, or {@code null}
     * @param pipeline the pipeline to create
     * @param timeout  how long each request may take
     * @return {@value #ENGINE} with the pipeline when every node has neural-search and the pipeline was stored;
     *         otherwise {@value #CLIENT_SIDE} with the reason ({@link Decision#unreachable()} when no node answered)
     */
    public static Decision detect(
            String uris, String username, String password, HybridPipeline pipeline, Duration timeout) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
        String auth = username == null || username.isBlank()
                ? null
                : "Basic "
                        + Base64.getEncoder()
                                .encodeToString((username + ":" + (password == null ? "" : password))
                                        .getBytes(StandardCharsets.UTF_8));
        for (URI base : ClusterIndexes.parse(uris)) {
            try {
                HttpResponse<String> nodes =
                        send(http, base, auth, "GET", "/_cat/nodes?h=id&full_id=true", null, timeout);
                HttpResponse<String> plugins =
                        send(http, base, auth, "GET", "/_cat/plugins?h=id,component", null, timeout);
                if (nodes.statusCode() != 200 || plugins.statusCode() != 200) {
                    return Decision.clientSide("the cluster refused the plugin listing (HTTP " + nodes.statusCode()
                            + ", " + plugins.statusCode() + ")");
                }
                Set<String> all = lines(nodes.body());
                Set<String> withPlugin = nodesWithNeuralSearch(plugins.body());
                // Ids compared by prefix: whether a listing abbreviates them has changed between versions.
                all.removeIf(node -> withPlugin.stream().anyMatch(p -> p.startsWith(node) || node.startsWith(p)));
                if (withPlugin.isEmpty() || !all.isEmpty()) {
                    return Decision.clientSide("the neural-search plugin is missing on "
                            + (all.isEmpty() ? "the cluster" : "node(s) " + all));
                }
                String path = "/_search/pipeline/" + URLEncoder.encode(pipeline.name(), StandardCharsets.UTF_8);
                HttpResponse<String> put = send(http, base, auth, "PUT", path, pipeline.body(), timeout);
                if (put.statusCode() / 100 != 2) {
                    return Decision.clientSide("the cluster refused the search pipeline " + pipeline.name() + " (HTTP "
                            + put.statusCode() + ": " + abbreviate(put.body()) + ")");
                }
                return new Decision(
                        ENGINE, pipeline, pipeline.describe() + " through pipeline " + pipeline.name(), false);
            } catch (IOException e) {
                // this node does not answer: try the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new Decision(CLIENT_SIDE, null, "no node of " + uris + " answered", true);
    }

    /**
     * @param catPlugins the text of {@code GET /_cat/plugins?h=id,component}: one line per node and plugin, the node id first
     * @return the (full) ids of the nodes that list a neural-search plugin
     */
    static Set<String> nodesWithNeuralSearch(String catPlugins) {
        Set<String> nodes = new HashSet<>();
        for (String line : catPlugins.split("\n")) {
            String[] columns = line.strip().split("\\s+");
            if (columns.length >= 2) {
                String component = columns[columns.length - 1].toLowerCase(Locale.ROOT);
                if (component.contains("neural-search") || component.contains("neuralsearch")) {
                    nodes.add(columns[0]);
                }
            }
        }
        return nodes;
    }

    private static Set<String> lines(String text) {
        Set<String> out = new HashSet<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                out.add(line.strip());
            }
        }
        return out;
    }

    private static HttpResponse<String> send(
            HttpClient http, URI base, String auth, String method, String path, String body, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(timeout)
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (auth != null) {
            request.header("Authorization", auth);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "…";
    }
}
