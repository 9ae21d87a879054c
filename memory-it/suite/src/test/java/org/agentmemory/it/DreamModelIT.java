package org.agentmemory.it;

import static org.agentmemory.it.DreamCycleIT.pageId;
import static org.agentmemory.it.DreamCycleIT.record;
import static org.agentmemory.it.DreamCycleIT.run;
import static org.agentmemory.it.DreamCycleIT.texts;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.agentmemory.it.support.Api;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Distillation by a chat model (spec §12.2 step 4) through a fake OpenAI-compatible server started here, on the port
 * the H2 server was told at start-up ({@code memory.dream.model-url}): a valid answer becomes the page, a low
 * confidence makes it a note, garbage JSON and a timeout fall back to the heuristic and the cycle finishes.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it needs the H2 server's fake model settings.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DreamModelIT {

    private static HttpServer server;
    private static final AtomicReference<Behaviour> BEHAVIOUR = new AtomicReference<>();
    private static final AtomicReference<String> LAST_BODY = new AtomicReference<>();

    private final Api api = Api.h2();

    private record Behaviour(String content, long delayMs) {}

    @BeforeAll
    static void startFakeModel() throws IOException {
        int port = Integer.parseInt(System.getProperty("it.dream.llm.port"));
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/v1/chat/completions", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                LAST_BODY.set(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            Behaviour b = BEHAVIOUR.get();
            if (b.delayMs() > 0) {
                try {
                    Thread.sleep(b.delayMs());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = Api.JSON
                    .writeValueAsString(Map.of(
                            "id", "cmpl-1",
                            "object", "chat.completion",
                            "choices",
                                    List.of(Map.of(
                                            "index",
                                            0,
                                            "message",
                                            Map.of("role", "assistant", "content", b.content())))))
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            try {
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            } catch (IOException clientGone) {
                // the server under test timed out and closed the connection
            }
        });
        server.start();
    }

    @AfterAll
    static void stopFakeModel() {
        server.stop(0);
    }

    private static final String VALID = "{\"title\":\"Quota checks before deploys\",\"body\":\"- Check the namespace"
            + " quota before kubectl apply\\n- Ask for quota raises early\",\"category\":\"decision\","
            + "\"confidence\":0.9}";

    @Test
    @Order(1)
    void aValidDistillationBecomesThePageWithTheGroupAsEvidence() throws Exception {
        BEHAVIOUR.set(new Behaviour("Here you are:\n```json\n" + VALID + "\n```", 0));
        // Cycles of other tests may have opened the circuit breaker (no fake was listening then): wait it out.
        JsonNode report = null;
        String agent = null;
        Instant deadline = Instant.now().plusSeconds(60);
        while (report == null || report.get("groupsByModel").asInt() == 0) {
            assertThat(Instant.now()).as("the model is called again").isBefore(deadline);
            if (report != null) {
                Thread.sleep(2_000);
            }
            agent = unique("model");
            for (int i = 0; i < 3; i++) {
                record(
                        api,
                        agent,
                        "kubectl apply to team-" + i + " hit the pod quota",
                        "Check quotas",
                        "kubectl",
                        i,
                        null);
            }
            report = run(api, agent);
        }
        assertThat(report.get("groupsDistilled").asInt()).isEqualTo(1);
        String id = pageId("Quota checks before deploys", "decision");
        assertThat(texts(report.get("pagesCreated"))).containsExactly(id);
        JsonNode page = api.get("/brain/pages/" + id + query("agentId", agent)).json();
        assertThat(page.get("category").asText()).isEqualTo("decision");
        assertThat(page.get("confidence").asDouble()).isEqualTo(0.9);
        assertThat(texts(page.get("statements"), "text"))
                .containsExactly("Check the namespace quota before kubectl apply", "Ask for quota raises early");
        assertThat(page.get("statements").get(0).get("evidence")).hasSize(3);
        assertThat(LAST_BODY.get())
                .contains("\"model\":\"fake-distiller\"")
                .contains("Analyze these related agent episodes")
                .contains("hit the pod quota");
    }

    @Test
    @Order(2)
    void aLowConfidenceMakesTheKnowledgeANote() throws Exception {
        BEHAVIOUR.set(new Behaviour(VALID.replace("0.9", "0.1"), 0));
        String agent = unique("low");
        record(api, agent, "psql migration stopped on a lock", "Set lock_timeout", "psql", 0, null);
        JsonNode report = run(api, agent);
        assertThat(report.get("groupsByModel").asInt()).isEqualTo(1);
        assertThat(texts(report.get("pagesCreated"))).containsExactly(pageId("Quota checks before deploys", "note"));
    }

    @Test
    @Order(3)
    void garbageJsonFallsBackToTheHeuristicAndTheCycleFinishes() throws Exception {
        BEHAVIOUR.set(new Behaviour("I think you should check quotas. {not json", 0));
        String agent = unique("garbage");
        record(api, agent, "smtp batch hit the rate limit", "Spread batches", "smtp", 0, null);
        JsonNode report = run(api, agent);
        assertThat(report.get("aborted").asBoolean()).isFalse();
        assertThat(report.get("groupsByModel").asInt()).isZero();
        assertThat(report.get("groupsDistilled").asInt()).isEqualTo(1);
        assertThat(report.get("episodesConsolidated").asInt()).isEqualTo(1);
        assertThat(texts(report.get("pagesCreated"))).containsExactly(pageId("Tool Execution pattern: smtp", "lesson"));
    }

    @Test
    @Order(4)
    void aTimeoutFallsBackToTheHeuristicAndTheCycleFinishes() throws Exception {
        BEHAVIOUR.set(new Behaviour(VALID, 8_000));
        String agent = unique("slow");
        record(api, agent, "pdf render missed a font", "Bundle fonts", "pdf", 0, null);
        long start = System.nanoTime();
        JsonNode report = run(api, agent);
        assertThat(report.get("aborted").asBoolean()).isFalse();
        assertThat(report.get("groupsByModel").asInt()).isZero();
        assertThat(report.get("episodesConsolidated").asInt()).isEqualTo(1);
        assertThat(texts(report.get("pagesCreated"))).containsExactly(pageId("Tool Execution pattern: pdf", "lesson"));
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(20_000);
    }
}
