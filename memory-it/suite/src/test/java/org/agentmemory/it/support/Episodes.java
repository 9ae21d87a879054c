package org.agentmemory.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds episodic request bodies and reads their answers, over the wire format.
 */
public final class Episodes {

    private Episodes() {}

    /** @return a namespace object (null fields left out) */
    public static Map<String, Object> ns(String agentId, String userId) {
        Map<String, Object> ns = Api.obj("agentId", agentId);
        if (userId != null) {
            ns.put("userId", userId);
        }
        return ns;
    }

    /** @return a {@code POST /episodes} body without reflection */
    public static Map<String, Object> episode(Map<String, Object> ns, String situation, String action, String outcome) {
        return Api.obj(
                "namespace",
                ns,
                "situation",
                situation,
                "actionTaken",
                action,
                "outcome",
                outcome,
                "generateReflection",
                false);
    }

    /**
     * Records and returns the stored episode, failing on anything but 201 (stored now) or 200 (identical content
     * stored before).
     */
    public static JsonNode record(Api api, Map<String, Object> body) {
        Api.Response r = api.post("/episodes", body);
        if (r.status() != 201 && r.status() != 200) {
            throw new AssertionError("POST /episodes answered " + r.status() + ": " + r.body());
        }
        return r.json();
    }

    /** @return the hits of a recall */
    public static List<JsonNode> recall(Api api, Map<String, Object> ns, String query, String mode, int topK) {
        Api.Response r = api.post(
                "/episodes/recall",
                Api.obj("namespace", ns, "query", query, "mode", mode, "topK", topK, "scoreThreshold", -1.0));
        if (r.status() != 200) {
            throw new AssertionError("POST /episodes/recall answered " + r.status() + ": " + r.body());
        }
        List<JsonNode> hits = new ArrayList<>();
        r.json().forEach(hits::add);
        return hits;
    }
}
