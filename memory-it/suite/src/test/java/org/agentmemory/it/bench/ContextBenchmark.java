package org.agentmemory.it.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.agentmemory.it.support.Api;

/**
 * Read-path benchmark through the context endpoint on a running server backed by PostgreSQL (issue 4). Prints a
 * report; never asserts.
 *
 * <p>One conversation of 1,000 turns with tool invocations (the same generator as memory-bench's
 * {@code CompactionBenchmark}: varied texts, 40 % of turns with 1–5 invocations, one output in eight of
 * 1,500–4,500 words, which the write path offloads) is written once. Then, from one client over keep-alive
 * HTTP/1.1, each measured call is {@code POST /api/v1/conversations/{id}/context} with model {@code gpt-4o},
 * a 1,200-token system prompt and a 150-token user prompt: load the 1,000 turns and the compaction state, run
 * the tiered walk over the last 30, render, store the omissions (a no-op after the first call: they exist),
 * answer. {@code GET /api/v1/conversations/{id}} of the same history is measured next to it, as the cost of
 * loading alone.
 *
 * <p>Run (starts the PostgreSQL WildFly of the integration tests, runs this and the conversation benchmark,
 * stops it): {@code mvn -pl memory-it/suite -am verify -Pbenchmark -DskipTests}; this program alone: add
 * {@code -Dbench.conversation.skip=true}.
 */
public final class ContextBenchmark {

    private static final int TURNS = 1000;
    private static final int WARMUP = Integer.getInteger("bench.context.warmup", 300);
    private static final int CALLS = Integer.getInteger("bench.context.calls", 500);
    private static final String[] WORDS =
            ("the service stores every turn of a conversation with its tool invocations and "
                            + "renders a compacted history for the model under a strict token budget while keeping recent work verbatim "
                            + "and older outputs recoverable by content id deployment queue order invoice customer shipment latency "
                            + "database index migration schema rollback retry timeout cache eviction")
                    .split(" ");
    private static final String[] TOOLS = {
        "bash", "read_file", "web_search", "query_database", "write_file", "lookup_order"
    };

    private ContextBenchmark() {}

    public static void main(String[] args) throws Exception {
        Api api = Api.postgres();
        HttpLoad.useToken(api.token());
        String user = "context-bench-" + Long.toString(System.currentTimeMillis(), 36);
        long writeStart = System.nanoTime();
        List<Map<String, Object>> turns = history();
        long id = -1;
        // In batches of 100: one 1,000-turn transaction of this size can exceed the resource's 10 s timeout.
        for (int from = 0; from < TURNS; from += 100) {
            Api.Response written = api.post(
                    "/turns/batch",
                    Api.obj(
                            "userId",
                            user,
                            "sessionId",
                            "s",
                            "chatbotId",
                            "agent",
                            "turns",
                            turns.subList(from, Math.min(TURNS, from + 100))));
            if (written.status() != 200) {
                throw new IllegalStateException(
                        "writing the history failed: " + written.status() + " " + written.body());
            }
            id = written.json().get(0).get("conversationId").asLong();
        }
        double writeSeconds = (System.nanoTime() - writeStart) / 1e9;
        byte[] body = Api.JSON.writeValueAsBytes(
                Api.obj("model", "gpt-4o", "systemPromptTokens", 1200, "userPromptTokens", 150));
        URL contextUrl = api.uri("/conversations/" + id + "/context").toURL();
        URL historyUrl = api.uri("/conversations/" + id).toURL();

        JsonNode first = Api.JSON.readTree(HttpLoad.call(contextUrl, body));
        long[] context = time(contextUrl, body);
        long[] history = time(historyUrl, null);
        JsonNode last = Api.JSON.readTree(HttpLoad.call(contextUrl, body));

        StringBuilder report = new StringBuilder();
        report.append(String.format(
                Locale.ROOT,
                "Context endpoint benchmark (PostgreSQL): %d turns written in %.1f s;"
                        + " one client, %d warm-up + %d measured calls each%n%n",
                TURNS,
                writeSeconds,
                WARMUP,
                CALLS));
        report.append("| measure | p50 | p99 | target |\n|---|---|---|---|\n");
        report.append(String.format(
                Locale.ROOT,
                "| POST /conversations/{id}/context (gpt-4o, H = %d tokens) | %.1f ms | %.1f ms | p50 < 30 ms |%n",
                last.get("historyBudget").asInt(),
                context[0] / 1e6,
                context[1] / 1e6));
        report.append(String.format(
                Locale.ROOT,
                "| GET /conversations/{id} (load only, for comparison) | %.1f ms | %.1f ms | |%n",
                history[0] / 1e6,
                history[1] / 1e6));
        report.append(String.format(
                Locale.ROOT,
                "%nAnswer: outcome %s, %d messages, %d tiers, %d dropped turn ids,"
                        + " %d tokens used, stage2Needed %s, boundary %s; the first call stored the omissions, the measured"
                        + " ones found them stored (identical answers: %s)%n",
                last.get("outcome").asText(),
                last.get("messages").size(),
                last.get("tiers").size(),
                last.get("droppedTurnIds").size(),
                last.get("tokensUsed").asInt(),
                last.get("stage2Needed").asBoolean(),
                last.get("boundaryTurnId").asText(),
                first.equals(last)));
        System.out.println(report);
    }

    /** @return {p50, p99} in nanoseconds */
    private static long[] time(URL url, byte[] body) throws Exception {
        for (int i = 0; i < WARMUP; i++) {
            HttpLoad.call(url, body);
        }
        long[] times = new long[CALLS];
        for (int i = 0; i < CALLS; i++) {
            long start = System.nanoTime();
            HttpLoad.call(url, body);
            times[i] = System.nanoTime() - start;
        }
        Arrays.sort(times);
        return new long[] {times[CALLS / 2], times[(int) Math.ceil(CALLS * 0.99) - 1]};
    }

    /** The generator of memory-bench's CompactionBenchmark (seed 42), as JSON turns. */
    private static List<Map<String, Object>> history() {
        Random random = new Random(42);
        List<Map<String, Object>> turns = new ArrayList<>(TURNS);
        for (int i = 0; i < TURNS; i++) {
            String user = sentence(random, 10 + random.nextInt(60));
            String assistant = sentence(random, 30 + random.nextInt(250));
            List<Map<String, Object>> invocations = new ArrayList<>();
            if (random.nextInt(10) < 4) {
                for (int k = 1 + random.nextInt(5); k > 0; k--) {
                    invocations.add(invocation(random));
                }
            }
            turns.add(Api.obj(
                    "turnId",
                    "turn-" + i,
                    "userMessage",
                    user,
                    "assistantResponse",
                    assistant,
                    "toolInvocations",
                    invocations));
        }
        return turns;
    }

    private static Map<String, Object> invocation(Random random) {
        String tool = TOOLS[random.nextInt(TOOLS.length)];
        Map<String, Object> input = new LinkedHashMap<>();
        input.put(
                switch (tool) {
                    case "bash" -> "command";
                    case "read_file", "write_file" -> "path";
                    default -> "query";
                },
                sentence(random, 3 + random.nextInt(8)));
        input.put("limit", random.nextInt(100));
        String output = random.nextInt(8) == 0
                ? sentence(random, 1500 + random.nextInt(3000))
                : sentence(random, 20 + random.nextInt(300));
        if (tool.equals("bash")) {
            output = "{\"exit_code\":" + random.nextInt(2) + ",\"stdout\":\"" + output + "\"}";
        }
        boolean failed = random.nextInt(15) == 0;
        Map<String, Object> invocation = Api.obj(
                "toolName",
                tool,
                "input",
                input,
                "output",
                output,
                "status",
                failed ? "error" : "completed",
                "elapsedMs",
                random.nextInt(20_000));
        if (failed) {
            invocation.put("error", "TimeoutError: " + sentence(random, 8));
        }
        return invocation;
    }

    private static String sentence(Random random, int words) {
        StringBuilder text = new StringBuilder(words * 7);
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                text.append(w % 17 == 0 ? ".\n" : " ");
            }
            text.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.toString();
    }
}
