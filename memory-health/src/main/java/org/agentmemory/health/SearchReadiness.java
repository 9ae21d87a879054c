package org.agentmemory.health;

import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness data on the search backend (issue 36 items 1 and 3): {@code backend} ({@code lucene} or
 * {@code opensearch}), {@code coordination} ({@code none} or {@code outbox-polling}) and, on OpenSearch, the
 * cluster's {@code clusterStatus} ({@code green}, {@code yellow}, {@code red}, or {@code unreachable}) and
 * {@code search} ({@code available} or {@code degraded}). Read from the system properties persistence.xml reads.
 * Also, issue 36 item 4: {@code hybrid}, how hybrid recall fuses its legs ({@code engine}: one {@code hybrid} query
 * through the service's OpenSearch search pipeline; {@code client-side}: in the service), and {@code hybridDetail}
 * (technique and pipeline, or why client-side), as the EJB module's {@code EngineHybridBean} published them in the
 * system properties {@code memory.search.hybrid} and {@code memory.search.hybrid.detail} at start-up (this module
 * does not see the EJB module's classes).
 *
 * <p>Always up: while the search cluster is unreachable writes still succeed (they wait in the outbox) and only
 * recall answers 503, so the server must stay in its load balancer; a down check would take every server out at once.
 */
@Readiness
@ApplicationScoped
public class SearchReadiness implements HealthCheck {

    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"(\\w+)\"");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Override
    public HealthCheckResponse call() {
        boolean cluster = "elasticsearch".equals(System.getProperty("memory.search.backend", "lucene"));
        String coordination = System.getProperty("memory.search.coordination", "none");
        HealthCheckResponseBuilder response = HealthCheckResponse.named("memory-search")
                .up()
                .withData("backend", cluster ? "opensearch" : "lucene")
                .withData("coordination", coordination.isBlank() ? "none" : coordination)
                .withData("hybrid", System.getProperty("memory.search.hybrid", "client-side"))
                .withData("hybridDetail", System.getProperty("memory.search.hybrid.detail", "not decided yet"));
        if (cluster) {
            String status = clusterStatus(System.getProperty("memory.search.uris", "http://127.0.0.1:9200"));
            response.withData("clusterStatus", status)
                    .withData("search", status.equals("green") || status.equals("yellow") ? "available" : "degraded");
        }
        return response.build();
    }

    /** @return the status of the first node that answers {@code GET /_cluster/health}, or {@code unreachable} */
    private String clusterStatus(String uris) {
        for (String uri : uris.split(",")) {
            if (uri.isBlank()) {
                continue;
            }
            try {
                HttpRequest.Builder request = HttpRequest.newBuilder(
                                URI.create(uri.strip()).resolve("/_cluster/health"))
                        .timeout(Duration.ofSeconds(2))
                        .GET();
                String user = System.getProperty("memory.search.username", "");
                if (!user.isBlank()) {
                    String pair = user + ":" + System.getProperty("memory.search.password", "");
                    request.header(
                            "Authorization",
                            "Basic "
                                    + java.util.Base64.getEncoder()
                                            .encodeToString(pair.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                }
                HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                Matcher m = STATUS.matcher(r.body());
                if (r.statusCode() == 200 && m.find()) {
                    return m.group(1);
                }
            } catch (IOException | IllegalArgumentException e) {
                // this node does not answer: try the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return "unreachable";
    }
}
