package org.agentmemory.platform.search;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Index maintenance that Hibernate Search's Elasticsearch backend does not express, sent to the cluster (OpenSearch
 * or Elasticsearch) over its REST API with the JDK's HTTP client: a force merge into one segment. Hibernate Search's
 * {@code workspace().mergeSegments()} sends {@code _forcemerge} without {@code max_num_segments}, after which
 * OpenSearch keeps as many segments as its merge policy likes (2–5 seen in {@code memory-it/opensearch}); k-NN
 * search walks one HNSW graph per segment, so recall latency depends on that number.
 *
 * <p>Index names follow Hibernate Search's default layout: the read alias {@code <index>-read} of each index.
 */
public final class ClusterIndexes {

    /** Persistence property naming the Hibernate Search backend type. */
    public static final String BACKEND_TYPE = "hibernate.search.backend.type";
    /** Persistence property with the cluster's URIs (comma-separated). */
    public static final String BACKEND_URIS = "hibernate.search.backend.uris";

    private ClusterIndexes() {}

    /**
     * @param persistenceProperties the persistence unit's properties ({@code EntityManagerFactory.getProperties()})
     * @return whether the search backend is a cluster (OpenSearch/Elasticsearch) rather than embedded Lucene
     */
    public static boolean isCluster(Map<String, Object> persistenceProperties) {
        Object type = persistenceProperties.get(BACKEND_TYPE);
        return type != null && "elasticsearch".equalsIgnoreCase(type.toString().strip());
    }

    /**
     * Merges each index into one segment ({@code POST /<index>-read/_forcemerge?max_num_segments=1}), waiting for
     * the cluster to finish, then refreshes it ({@code POST /<index>-read/_refresh}) so searches use the merged
     * segment at once. Each request goes to the first URI that answers.
     *
     * @param uris    the cluster's URIs, comma-separated, e.g. {@code http://127.0.0.1:9200}
     * @param indexes Hibernate Search index names, e.g. {@code episode}
     * @param timeout how long one index's merge may take
     * @throws IllegalStateException when no URI answers, or the cluster refuses a merge (with its answer)
     * @throws IllegalArgumentException when {@code uris} holds no URI
     */
    public static void forceMergeToOneSegment(String uris, List<String> indexes, Duration timeout) {
        List<URI> candidates = parse(uris);
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        for (String index : indexes) {
            String alias = "/" + URLEncoder.encode(index + "-read", StandardCharsets.UTF_8);
            post(http, candidates, alias + "/_forcemerge?max_num_segments=1", timeout);
            // Searches use the merged segment from the next refresh on: make that now.
            post(http, candidates, alias + "/_refresh", timeout);
        }
    }

    /**
     * @param uris    the cluster's URIs, comma-separated
     * @param timeout how long each node may take to answer
     * @return whether any node of the cluster answers {@code GET /} with a 2xx status
     */
    public static boolean answers(String uris, Duration timeout) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
        for (URI base : parse(uris)) {
            try {
                HttpResponse<Void> response = http.send(
                        HttpRequest.newBuilder(base.resolve("/"))
                                .timeout(timeout)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() / 100 == 2) {
                    return true;
                }
            } catch (IOException e) {
                // this node does not answer: try the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static void post(HttpClient http, List<URI> candidates, String path, Duration timeout) {
        IOException last = null;
        for (URI base : candidates) {
            HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
                    .timeout(timeout)
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build();
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() / 100 != 2) {
                    throw new IllegalStateException(
                            "POST " + path + " answered " + response.statusCode() + ": " + response.body());
                }
                return;
            } catch (IOException e) {
                last = e; // try the next node
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during POST " + path, e);
            }
        }
        throw new IllegalStateException("no node of " + candidates + " answered POST " + path, last);
    }

    static List<URI> parse(String uris) {
        List<URI> out = new ArrayList<>();
        if (uris != null) {
            for (String part : uris.split(",")) {
                String u = part.strip();
                if (!u.isEmpty()) {
                    out.add(URI.create(u.endsWith("/") ? u.substring(0, u.length() - 1) : u));
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no cluster URI in '" + uris + "'");
        }
        return out;
    }
}
