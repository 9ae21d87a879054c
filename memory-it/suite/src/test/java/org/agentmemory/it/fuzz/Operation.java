package org.agentmemory.it.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One operation of the OpenAPI document: its method, path template, parameters and JSON request body schema.
 *
 * @param method     upper-case HTTP method
 * @param path       the path template as the document gives it (e.g. {@code /api/v1/conversations/{id}})
 * @param parameters path, query and header parameters
 * @param body       the resolved schema of an {@code application/json} request body, or null when none
 * @param bodyType   the request body's media type, or null when none
 */
public record Operation(String method, String path, List<Param> parameters, JsonNode body, String bodyType) {

    /**
     * One parameter.
     *
     * @param name     its name
     * @param in       path, query or header
     * @param required whether the document marks it required
     * @param schema   its resolved schema (never null; empty object when absent)
     */
    public record Param(String name, String in, boolean required, JsonNode schema) {}

    /** @return e.g. {@code GET /api/v1/conversations/{id}} */
    public String key() {
        return method + " " + path;
    }

    /**
     * Every operation of an OpenAPI 3 document, in document order.
     *
     * @param doc the document (JSON)
     * @return the operations
     */
    /**
     * @param api a server
     * @return its live OpenAPI document (read without a token: it needs none)
     */
    public static JsonNode document(org.agentmemory.it.support.Api api) {
        try {
            return org.agentmemory.it.support.Api.JSON.readTree(api.sendAsIs(java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create(api.base() + "/openapi?format=JSON"))
                            .GET()
                            .build())
                    .body());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public static List<Operation> all(JsonNode doc) {
        List<Operation> ops = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> methods = path.getValue().fields(); methods.hasNext(); ) {
                Map.Entry<String, JsonNode> m = methods.next();
                String method = m.getKey().toUpperCase(Locale.ROOT);
                if (!List.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD").contains(method)) {
                    continue;
                }
                List<Param> params = new ArrayList<>();
                for (JsonNode p : path.getValue().path("parameters")) {
                    params.add(param(doc, p));
                }
                for (JsonNode p : m.getValue().path("parameters")) {
                    params.add(param(doc, p));
                }
                JsonNode body = null;
                String bodyType = null;
                JsonNode content =
                        resolve(doc, m.getValue().path("requestBody")).path("content");
                for (Iterator<String> types = content.fieldNames(); types.hasNext(); ) {
                    String type = types.next();
                    if (bodyType == null || type.contains("json")) {
                        bodyType = type;
                        body = resolve(doc, content.path(type).path("schema"));
                    }
                }
                ops.add(new Operation(method, path.getKey(), params, body, bodyType));
            }
        }
        return ops;
    }

    private static Param param(JsonNode doc, JsonNode p) {
        JsonNode resolved = resolve(doc, p);
        return new Param(
                resolved.path("name").asText(),
                resolved.path("in").asText(),
                resolved.path("required").asBoolean(false),
                resolve(doc, resolved.path("schema")));
    }

    /**
     * Follows {@code $ref}s (local ones, {@code #/components/...}) and the first member of {@code allOf}.
     *
     * @param doc  the document
     * @param node a schema or other node, possibly a reference
     * @return the node it stands for (a missing node stays missing)
     */
    public static JsonNode resolve(JsonNode doc, JsonNode node) {
        JsonNode current = node;
        for (int hops = 0; hops < 20; hops++) {
            if (current.has("$ref")) {
                current = doc.at(current.get("$ref").asText().substring(1));
            } else if (current.has("allOf") && current.get("allOf").size() == 1) {
                current = current.get("allOf").get(0);
            } else {
                return current;
            }
        }
        return current;
    }
}
