package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Contexts.words;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Contexts;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The commit round trip of spec §4 and §5.4 over REST on both servers: the context call's commit sent back with
 * the round's turn is folded into {@code metadata.compaction} (exact EWMA calibration, boundary, sticky Stage-2
 * flag) in the turn's transaction, and the first Stage-2 request of a conversation is counted once in
 * {@code memory_stage2_needed_total} on the management interface's Prometheus endpoint.
 */
class CompactionCommitIT {

    private static final double ALPHA = 0.2;

    static Stream<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2()).stream();
    }

    private static Map<String, Object> commit(long promptEstimate, String boundary, boolean stage2) {
        return obj(
                "promptEstimate",
                promptEstimate,
                "boundaryTurnId",
                boundary,
                "stage2Needed",
                stage2,
                "historyEstimate",
                0,
                "droppedTurns",
                0,
                "available",
                0);
    }

    private static Map<String, Object> turn(String id, Map<String, Object> usage) {
        Map<String, Object> t = obj("turnId", id, "userMessage", "question " + id, "assistantResponse", "answer " + id);
        if (usage != null) {
            t.put("metadata", obj("model", "gpt-4o", "usage", usage));
        }
        return t;
    }

    private static Api.Response add(Api api, String user, Map<String, Object> turn, Map<String, Object> commit) {
        return api.post("/turns", obj("userId", user, "sessionId", "s", "turn", turn, "compaction", commit));
    }

    private static JsonNode state(Api api, long id) {
        return api.get("/conversations/" + id + "/metadata").json().at("/metadata/compaction");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void calibrationBoundaryAndFlagsFoldExactlyAsSpecified(Api api) {
        String user = unique("calib");
        Api.Response first =
                add(api, user, turn("t1", obj("input_tokens", 1100, "output_tokens", 20)), commit(1000, "t1", false));
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        long id = first.json().get("conversationId").asLong();
        JsonNode s1 = state(api, id);
        assertThat(s1.get("tokenizer").asText()).isEqualTo("o200k_base");
        assertThat(s1.get("calibration").asDouble()).isEqualTo(1100.0 / 1000.0);
        assertThat(s1.get("samples").asInt()).isEqualTo(1);
        assertThat(s1.get("boundary_turn_id").asText()).isEqualTo("t1");
        assertThat(s1.get("stage2_needed").asBoolean()).isFalse();
        Instant updated = Instant.parse(s1.get("updated_at").asText());
        assertThat(updated)
                .isBetween(Instant.now().minusSeconds(600), Instant.now().plusSeconds(600));

        // Second sample from prompt_tokens (no input_tokens): EWMA 0.2 × ratio + 0.8 × previous; null boundary keeps
        // t1.
        assertThat(add(api, user, turn("t2", obj("prompt_tokens", 1300)), commit(1000, null, false))
                        .status())
                .isEqualTo(201);
        double expected2 = ALPHA * (1300.0 / 1000.0) + (1 - ALPHA) * (1100.0 / 1000.0);
        JsonNode s2 = state(api, id);
        assertThat(s2.get("calibration").asDouble()).isEqualTo(expected2);
        assertThat(s2.get("samples").asInt()).isEqualTo(2);
        assertThat(s2.get("boundary_turn_id").asText()).isEqualTo("t1");

        // A ratio of 10 is clamped to 2.0.
        assertThat(add(api, user, turn("t3", obj("input_tokens", 1000)), commit(100, "t2", false))
                        .status())
                .isEqualTo(201);
        JsonNode s3 = state(api, id);
        assertThat(s3.get("calibration").asDouble()).isEqualTo(2.0);
        assertThat(s3.get("samples").asInt()).isEqualTo(3);
        assertThat(s3.get("boundary_turn_id").asText()).isEqualTo("t2");

        // The same turn id again writes nothing: the sample is not counted twice.
        Api.Response repeated = add(api, user, turn("t3", obj("input_tokens", 5000)), commit(1000, "t3", true));
        assertThat(repeated.status()).isEqualTo(200);
        assertThat(state(api, id)).isEqualTo(s3);

        // Without a commit the state is untouched; without usage or estimate only boundary and flag change.
        assertThat(api.post(
                                "/turns",
                                obj("userId", user, "sessionId", "s", "turn", turn("t4", obj("input_tokens", 900))))
                        .status())
                .isEqualTo(201);
        assertThat(state(api, id)).isEqualTo(s3);
        assertThat(add(api, user, turn("t5", null), commit(0, "t4", false)).status())
                .isEqualTo(201);
        JsonNode s5 = state(api, id);
        assertThat(s5.get("calibration").asDouble()).isEqualTo(2.0);
        assertThat(s5.get("samples").asInt()).isEqualTo(3);
        assertThat(s5.get("boundary_turn_id").asText()).isEqualTo("t4");
        assertThat(s5.get("updated_at")).isEqualTo(s3.get("updated_at"));

        // The read path uses the persisted calibration: sizes are ceil(2.0 × tokens).
        JsonNode context = Contexts.byId(api, id, obj("model", "gpt-4o"));
        assertThat(context.get("calibration").asDouble()).isEqualTo(2.0);
        String user5 = "question t5";
        String answer5 = "answer t5";
        JsonNode newest = context.get("tiers").get(context.get("tiers").size() - 1);
        assertThat(newest.get("turnId").asText()).isEqualTo("t5");
        assertThat(newest.get("estimatedTokens").asInt())
                .isEqualTo(2 * (Contexts.tokens(user5) + Contexts.tokens(answer5)));

        // Other metadata keys survive the fold.
        JsonNode metadata = api.get("/conversations/" + id + "/metadata").json();
        Map<String, Object> withTopic = Api.JSON.convertValue(metadata.get("metadata"), Map.class);
        withTopic.put("topic", "calibration");
        assertThat(api.put("/conversations/" + id + "/metadata", withTopic).status())
                .isEqualTo(200);
        assertThat(add(api, user, turn("t6", obj("input_tokens", 2000)), commit(1000, null, false))
                        .status())
                .isEqualTo(201);
        JsonNode after = api.get("/conversations/" + id + "/metadata").json().get("metadata");
        assertThat(after.get("topic").asText()).isEqualTo("calibration");
        assertThat(after.at("/compaction/samples").asInt()).isEqualTo(4);
        assertThat(after.at("/compaction/calibration").asDouble())
                .isEqualTo(Math.min(2.0, ALPHA * 2.0 + (1 - ALPHA) * 2.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void theContextCallsCommitRoundTripsThroughAddTurn(Api api) {
        String user = unique("roundtrip");
        List<Map<String, Object>> history = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            // h4's output is offloaded at write time, so h4 and everything older render PRUNED: the boundary is h4.
            history.add(obj(
                    "turnId",
                    "h" + i,
                    "userMessage",
                    words(i, 40),
                    "assistantResponse",
                    words(100 + i, 80),
                    "toolInvocations",
                    List.of(obj(
                            "toolName",
                            "search",
                            "input",
                            obj("query", "q" + i),
                            "output",
                            words(200 + i, i == 4 ? 2500 : 200)))));
        }
        long id = Contexts.addTurns(api, "bot", user, "s", history);
        JsonNode context =
                Contexts.byId(api, id, obj("model", "gpt-4o", "maxHistoryTokens", 5000, "systemPromptTokens", 300));
        assertThat(context.get("boundaryTurnId").asText()).isEqualTo("h4");
        JsonNode commit = context.get("commit");
        assertThat(commit.get("boundaryTurnId").asText())
                .isEqualTo(context.get("boundaryTurnId").asText())
                .isNotEmpty();
        long providerTokens = commit.get("promptEstimate").asLong() + 250;
        Map<String, Object> turn = obj(
                "turnId",
                "h9",
                "userMessage",
                "next",
                "assistantResponse",
                "done",
                "metadata",
                obj("usage", obj("input_tokens", providerTokens)));
        Api.Response saved = api.post(
                "/turns",
                obj(
                        "userId",
                        user,
                        "sessionId",
                        "s",
                        "chatbotId",
                        "bot",
                        "turn",
                        turn,
                        "compaction",
                        Api.JSON.convertValue(commit, Map.class)));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        JsonNode state = state(api, id);
        assertThat(state.get("boundary_turn_id").asText())
                .isEqualTo(context.get("boundaryTurnId").asText());
        assertThat(state.get("stage2_needed").asBoolean())
                .isEqualTo(context.get("stage2Needed").asBoolean());
        assertThat(state.get("samples").asInt()).isEqualTo(1);
        assertThat(state.get("calibration").asDouble())
                .isEqualTo(Math.max(
                        0.5,
                        Math.min(
                                2.0,
                                (double) providerTokens
                                        / commit.get("promptEstimate").asLong())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void stage2IsFiredOncePerConversationAndCounted(Api api) {
        // The count is read from WildFly's Micrometer endpoint (/prometheus), which Liberty does not configure.
        org.junit.jupiter.api.Assumptions.assumeFalse(
                Boolean.getBoolean("it.liberty"), "no /prometheus metrics endpoint on Open Liberty");
        double before = Contexts.stage2Counter(api);
        String user = unique("stage2");
        List<Map<String, Object>> history = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            history.add(obj("turnId", "s" + i, "userMessage", words(i, 60), "assistantResponse", words(50 + i, 120)));
        }
        long id = Contexts.addTurns(api, null, user, "s", history);
        JsonNode context = Contexts.byId(api, id, obj("model", "gpt-4o", "maxHistoryTokens", 300));
        assertThat(context.get("stage2Needed").asBoolean()).isTrue();
        assertThat(context.at("/commit/stage2Needed").asBoolean()).isTrue();
        assertThat(Contexts.stage2Counter(api))
                .as("a context call alone fires nothing")
                .isEqualTo(before);

        Map<String, Object> commit = Api.JSON.convertValue(context.get("commit"), Map.class);
        assertThat(add(api, user, turn("s7", null), commit).status()).isEqualTo(201);
        assertThat(state(api, id).get("stage2_needed").asBoolean()).isTrue();
        assertThat(Contexts.stage2Counter(api)).isEqualTo(before + 1);

        // Sticky: later commits, with or without the flag, never fire again for this conversation.
        assertThat(add(api, user, turn("s8", null), commit).status()).isEqualTo(201);
        assertThat(add(api, user, turn("s9", null), commit(10, null, false)).status())
                .isEqualTo(201);
        assertThat(state(api, id).get("stage2_needed").asBoolean()).isTrue();
        assertThat(api.delete("/conversations/" + id + "/turns").status()).isEqualTo(200);
        assertThat(add(api, user, turn("s10", null), commit).status()).isEqualTo(201);
        assertThat(Contexts.stage2Counter(api)).isEqualTo(before + 1);

        // Another conversation flips once more; one whose commits never ask for Stage 2 does not.
        String other = unique("stage2-other");
        assertThat(add(api, other, turn("o1", null), commit(10, null, false)).status())
                .isEqualTo(201);
        assertThat(Contexts.stage2Counter(api)).isEqualTo(before + 1);
        assertThat(add(api, other, turn("o2", null), commit(10, null, true)).status())
                .isEqualTo(201);
        assertThat(Contexts.stage2Counter(api)).isEqualTo(before + 2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void malformedCommitsAreProblemDetails(Api api) {
        String user = unique("badcommit");
        Api.Response negative = add(
                api,
                user,
                turn("b1", null),
                obj(
                        "promptEstimate",
                        10,
                        "boundaryTurnId",
                        null,
                        "stage2Needed",
                        false,
                        "historyEstimate",
                        -1,
                        "droppedTurns",
                        0,
                        "available",
                        0));
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.json().get("field").asText()).isEqualTo("compaction.historyEstimate");
        Api.Response badBoundary = add(api, user, turn("b1", null), commit(10, "", false));
        assertThat(badBoundary.status()).isEqualTo(400);
        assertThat(badBoundary.json().get("field").asText()).isEqualTo("compaction.boundaryTurnId");
        assertThat(api.get("/conversations/lookup" + Api.query("userId", user, "sessionId", "s"))
                        .status())
                .as("nothing was written")
                .isEqualTo(404);
    }
}
