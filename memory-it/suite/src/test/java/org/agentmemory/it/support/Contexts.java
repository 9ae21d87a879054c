package org.agentmemory.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Calls of the read path over REST and the checks every rendered history must pass. */
public final class Contexts {

    private static final Encoding O200K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
    private static final Pattern NOTICE = Pattern.compile("<tool-output-omitted [^>]*/>");
    private static final String[] WORDS = ("deployment rollout database index migration schema rollback retry timeout"
                    + " cache eviction queue invoice customer shipment latency network policy readiness probe replica pod log")
            .split(" ");

    private Contexts() {}

    /** @return o200k_base tokens of a text, as the service counts them */
    public static int tokens(String text) {
        return O200K.countTokensOrdinary(text);
    }

    /** @return {@code count} words from a small vocabulary, deterministic for a seed */
    public static String words(long seed, int count) {
        Random random = new Random(seed);
        StringBuilder text = new StringBuilder(count * 8);
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                text.append(' ');
            }
            text.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.toString();
    }

    /** POST /conversations/{id}/context; asserts 200. */
    public static JsonNode byId(Api api, long conversationId, Map<String, Object> request) {
        Api.Response r = api.post("/conversations/" + conversationId + "/context", request);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    /** GET /conversations/{id}/omitted with the given query; asserts 200 text/plain. */
    public static String omitted(Api api, long conversationId, String... query) {
        Api.Response r = api.get("/conversations/" + conversationId + "/omitted" + Api.query(query));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("text/plain");
        return r.body();
    }

    /** Appends turns in order by key with POST /turns/batch; @return the conversation id */
    public static long addTurns(
            Api api, String chatbotId, String userId, String sessionId, List<Map<String, Object>> turns) {
        Api.Response r = api.post(
                "/turns/batch",
                Api.obj("userId", userId, "sessionId", sessionId, "chatbotId", chatbotId, "turns", turns));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().get(0).get("conversationId").asLong();
    }

    /**
     * The invariants of every rendered history: first message user, roles alternate, last assistant, no blank
     * content, turn order kept, Σ o200k tokens of the contents equals tokensUsed and stays within historyBudget.
     */
    public static void assertWellFormed(JsonNode context) {
        JsonNode messages = context.get("messages");
        long total = 0;
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            assertThat(m.get("role").asText()).as("role of message %d", i).isEqualTo(i % 2 == 0 ? "user" : "assistant");
            assertThat(m.get("content").asText()).as("content of message %d", i).isNotBlank();
            total += tokens(m.get("content").asText());
        }
        if (messages.size() > 0) {
            assertThat(messages.get(messages.size() - 1).get("role").asText()).isEqualTo("assistant");
        }
        assertThat(context.get("tokensUsed").asLong()).isEqualTo(total);
        assertThat(total).isLessThanOrEqualTo(context.get("historyBudget").asLong());
        assertThat(context.get("withinBudget").asBoolean()).isTrue();
    }

    /** @return every omission notice in a text, in order */
    public static List<String> notices(String text) {
        List<String> found = new ArrayList<>();
        Matcher m = NOTICE.matcher(text);
        while (m.find()) {
            found.add(m.group());
        }
        return found;
    }

    /** @return the assistant contents of a context, concatenated with LF */
    public static String assistantText(JsonNode context) {
        StringBuilder text = new StringBuilder();
        context.get("messages").forEach(m -> {
            if (m.get("role").asText().equals("assistant")) {
                text.append(m.get("content").asText()).append('\n');
            }
        });
        return text.toString();
    }

    /** @return the turn ids of the tiers, oldest first */
    public static List<String> tierIds(JsonNode context) {
        List<String> ids = new ArrayList<>();
        context.get("tiers").forEach(t -> ids.add(t.get("turnId").asText()));
        return ids;
    }

    /** @return the value of memory_stage2_needed_total on the server's Prometheus endpoint (management port) */
    public static double stage2Counter(Api api) {
        Api.Response r = api.send(HttpRequest.newBuilder(URI.create(api.management() + "/prometheus"))
                .GET());
        assertThat(r.status()).as("GET %s/prometheus", api.management()).isEqualTo(200);
        for (String line : r.body().split("\n")) {
            if (line.startsWith("memory_stage2_needed_total")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("memory_stage2_needed_total is not exported by " + api.management() + "/prometheus");
    }
}
