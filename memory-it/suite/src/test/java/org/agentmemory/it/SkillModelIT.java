package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
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
 * Skill extraction with the dream cycle's chat model (issue 35 item 2) through a fake OpenAI-compatible server started
 * here, on the port the H2 server was told at start-up ({@code memory.dream.model-url}): the model's description and
 * instructions become the skill while its name, tools and evidence stay the heuristic's; the prompt holds the lessons
 * and never an episode's situation; an unreadable answer falls back to the heuristic skill.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it needs the H2 server's fake model settings.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SkillModelIT {

    private static HttpServer server;
    private static final AtomicReference<String> SKILL_ANSWER = new AtomicReference<>();
    private static final AtomicReference<String> SKILL_PROMPT = new AtomicReference<>();

    private static final String DISTILLATION =
            "{\"title\":\"Deploys\",\"body\":\"- Diff before applying\",\"category\":\"lesson\",\"confidence\":0.9}";

    private final Api api = SkillsIT.tenant(Api.h2(), "skills-model");

    @BeforeAll
    static void startFakeModel() throws IOException {
        int port = Integer.parseInt(System.getProperty("it.dream.llm.port"));
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/v1/chat/completions", exchange -> {
            String request;
            try (InputStream in = exchange.getRequestBody()) {
                request = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            boolean skill = request.contains("reusable skill");
            if (skill) {
                SKILL_PROMPT.set(request);
            }
            byte[] body = Api.JSON
                    .writeValueAsString(Map.of(
                            "id",
                            "cmpl-1",
                            "object",
                            "chat.completion",
                            "choices",
                            List.of(Map.of(
                                    "index",
                                    0,
                                    "message",
                                    Map.of(
                                            "role",
                                            "assistant",
                                            "content",
                                            skill ? SKILL_ANSWER.get() : DISTILLATION)))))
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterAll
    static void stopFakeModel() {
        server.stop(0);
    }

    @Test
    @Order(1)
    void theModelWritesDescriptionAndInstructionsFromTheLessonsOnly() throws Exception {
        SKILL_ANSWER.set(
                "```json\n{\"description\": \"Safe kubectl deploys.\", \"instructions\": \"1. Diff\\n2. Apply\"}\n```");
        // Cycles of other tests may have opened the circuit breaker (no model was listening then): wait it out.
        Instant deadline = Instant.now().plusSeconds(60);
        JsonNode skill = null;
        String agent = null;
        while (skill == null || !skill.get("description").asText().equals("Safe kubectl deploys.")) {
            assertThat(Instant.now()).as("the model is called again").isBefore(deadline);
            if (skill != null) {
                Thread.sleep(2_000);
            }
            agent = unique("model");
            skill = extract(agent);
        }
        assertThat(skill.get("instructions").asText()).isEqualTo("1. Diff\n2. Apply");
        assertThat(skill.get("name").asText()).isEqualTo("Tool Execution with kubectl");
        assertThat(SkillsIT.texts(skill.get("tools"))).containsExactly("kubectl");
        assertThat(skill.get("evidence")).hasSize(3);
        assertThat(SKILL_PROMPT.get())
                .contains("Run kubectl diff before kubectl apply", "Pin the image digest")
                .doesNotContain("Alice Example", "user-");
    }

    @Test
    @Order(2)
    void anUnreadableAnswerFallsBackToTheHeuristicSkill() {
        SKILL_ANSWER.set("I would rather not.");
        JsonNode skill = extract(unique("garbage"));
        assertThat(skill.get("description").asText())
                .isEqualTo(
                        "What worked in tool execution with kubectl, distilled from the agent's successful episodes.");
        assertThat(skill.get("instructions").asText())
                .isEqualTo("- Run kubectl diff before kubectl apply\n- Pin the image digest, not a tag");
    }

    /** Three successful kubectl episodes with lessons, one dream cycle; @return the agent's one extracted skill */
    private JsonNode extract(String agent) {
        assertThat(api.put("/agents", obj("agentId", agent, "skillAutoExtract", true))
                        .status())
                .isEqualTo(200);
        SkillsIT.success(
                api,
                agent,
                "user-1",
                "Deploy checkout for Alice Example",
                "kubectl",
                "Run kubectl diff before kubectl apply");
        SkillsIT.success(
                api, agent, "user-2", "Deploy search for Alice Example", "kubectl", "Pin the image digest, not a tag");
        SkillsIT.success(
                api,
                agent,
                "user-3",
                "Deploy cart for Alice Example",
                "kubectl",
                "Run kubectl diff before kubectl apply");
        DreamCycleIT.run(api, agent);
        JsonNode items = api.get("/skills" + query("agentId", agent, "source", "extracted"))
                .json()
                .get("items");
        assertThat(items).hasSize(1);
        return items.get(0);
    }
}
