package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The cluster force merge against a local HTTP server standing in for OpenSearch (the real node: memory-it/opensearch). */
class ClusterIndexesTest {

    @Test
    void onlyTheElasticsearchBackendIsACluster() {
        assertThat(ClusterIndexes.isCluster(Map.of("hibernate.search.backend.type", " Elasticsearch ")))
                .isTrue();
        assertThat(ClusterIndexes.isCluster(Map.of("hibernate.search.backend.type", "lucene")))
                .isFalse();
        assertThat(ClusterIndexes.isCluster(Map.of())).isFalse();
    }

    @Test
    void urisAreCommaSeparatedWithoutTrailingSlashes() {
        assertThat(ClusterIndexes.parse(" http://a:9200/ , http://b:9200,,"))
                .containsExactly(URI.create("http://a:9200"), URI.create("http://b:9200"));
        assertThatThrownBy(() -> ClusterIndexes.parse(" , ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClusterIndexes.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void mergesEachReadAliasIntoOneSegmentTryingTheNextNodeWhenOneIsDown() throws IOException {
        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            byte[] body = "{\"_shards\":{\"total\":1,\"successful\":1,\"failed\":0}}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            int closedPort;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                closedPort = s.getLocalPort();
            }
            String uris = "http://127.0.0.1:" + closedPort + ", http://127.0.0.1:"
                    + server.getAddress().getPort();

            ClusterIndexes.forceMergeToOneSegment(uris, List.of("episode", "turn_message"), Duration.ofSeconds(10));

            assertThat(requests)
                    .containsExactly(
                            "POST /episode-read/_forcemerge?max_num_segments=1",
                            "POST /episode-read/_refresh",
                            "POST /turn_message-read/_forcemerge?max_num_segments=1",
                            "POST /turn_message-read/_refresh");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aRefusedMergeFailsWithTheClustersAnswer() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = "{\"error\":\"index_not_found_exception\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(404, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String uri = "http://127.0.0.1:" + server.getAddress().getPort();
            assertThatThrownBy(() ->
                            ClusterIndexes.forceMergeToOneSegment(uri, List.of("episode"), Duration.ofSeconds(10)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("404")
                    .hasMessageContaining("index_not_found_exception");
        } finally {
            server.stop(0);
        }
    }
}
