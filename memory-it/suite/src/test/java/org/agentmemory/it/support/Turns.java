package org.agentmemory.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Request bodies and response helpers for turns, as plain JSON maps. */
public final class Turns {

    private Turns() {}

    /** @return a short id unique to this test run */
    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** @return a turn body with an id, a message and a reply */
    public static Map<String, Object> turn(String turnId, String userMessage, String assistantResponse) {
        return Api.obj("turnId", turnId, "userMessage", userMessage, "assistantResponse", assistantResponse);
    }

    /** @return the body of POST /turns */
    public static Map<String, Object> addTurn(
            String chatbotId, String userId, String sessionId, Map<String, Object> turn) {
        return Api.obj("userId", userId, "sessionId", sessionId, "chatbotId", chatbotId, "turn", turn);
    }

    /** @return the turn ids of a history in the order returned */
    public static List<String> turnIds(JsonNode history) {
        List<String> ids = new ArrayList<>();
        history.get("turns").forEach(t -> ids.add(t.get("turnId").asText()));
        return ids;
    }

    /** @return the sequences of a history in the order returned */
    public static List<Long> sequences(JsonNode history) {
        List<Long> seqs = new ArrayList<>();
        history.get("turns").forEach(t -> seqs.add(t.get("sequence").asLong()));
        return seqs;
    }
}
