package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.agentmemory.it.support.Api;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document ({@code /openapi}) documents the API (issue 30 item 7): every operation has a summary and
 * the error responses it can give, every property of every schema a description, every named schema (enums
 * included) a description, and the request examples it shows are requests the server accepts. Each test lists
 * every offender, not only the first.
 */
class OpenApiDescriptionIT {

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options");

    @Test
    void everyOperationHasASummaryAndItsErrorResponses() {
        JsonNode doc = document();
        List<String> offenders = new ArrayList<>();
        int operations = 0;
        int summarized = 0;
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation == null) {
                    continue;
                }
                operations++;
                String name = method.toUpperCase(Locale.ROOT) + " " + path.getKey();
                if (blank(operation.get("summary"))) {
                    offenders.add(name + ": no summary");
                } else {
                    summarized++;
                }
                offenders.addAll(responseOffenders(name, method, path.getKey(), operation));
            }
        }
        System.out.printf("[openapi] %d operations, %d with a summary%n", operations, summarized);
        assertThat(operations).as("operations in the document").isGreaterThan(40);
        assertThat(offenders)
                .as("operations without a summary or without the error responses they give")
                .isEmpty();
    }

    @Test
    void everySchemaAndPropertyHasADescription() {
        JsonNode doc = document();
        JsonNode schemas = doc.at("/components/schemas");
        List<String> offenders = new ArrayList<>();
        int[] components = new int[2];
        int enums = 0;
        for (Map.Entry<String, JsonNode> schema : schemas.properties()) {
            if (blank(schema.getValue().get("description"))) {
                offenders.add(schema.getKey() + ": no description");
            }
            if (schema.getValue().has("enum")) {
                enums++;
            }
            properties(schema.getKey(), schema.getValue(), schemas, offenders, components);
        }
        // Inline schemas of bodies and responses (pages, counts) are held to the same rule.
        int[] inline = new int[2];
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode operation = path.getValue().path(method);
                String name = method.toUpperCase(Locale.ROOT) + " " + path.getKey();
                List<JsonNode> contents = new ArrayList<>();
                contents.add(operation.at("/requestBody/content"));
                operation.path("responses").forEach(response -> contents.add(response.path("content")));
                for (JsonNode content : contents) {
                    for (Map.Entry<String, JsonNode> type : content.properties()) {
                        properties(
                                name + " " + type.getKey(), type.getValue().path("schema"), schemas, offenders, inline);
                    }
                }
            }
        }
        System.out.printf(
                "[openapi] %d schemas (%d enums); %d schema properties, %d with a description; %d"
                        + " properties of inline schemas, %d with a description%n",
                schemas.size(), enums, components[0], components[1], inline[0], inline[1]);
        assertThat(components[0]).as("schema properties in the document").isGreaterThan(200);
        assertThat(offenders)
                .as("schemas and properties without a description, and references to no schema")
                .isEmpty();
    }

    @Test
    void requestExamplesAreAcceptedByTheServer() {
        Api api = Api.postgres();
        JsonNode doc = document();
        record Example(String path, String method, String mediaType, String name, JsonNode value) {}
        List<Example> examples = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : doc.get("paths").properties()) {
            for (String method : METHODS) {
                JsonNode content =
                        path.getValue().path(method).path("requestBody").path("content");
                for (Map.Entry<String, JsonNode> type : content.properties()) {
                    for (Map.Entry<String, JsonNode> example :
                            type.getValue().path("examples").properties()) {
                        examples.add(new Example(
                                path.getKey(),
                                method,
                                type.getKey(),
                                example.getKey(),
                                example.getValue().get("value")));
                    }
                }
            }
        }
        // The bodies an agent sends most: appending a turn, its context, recall.
        assertThat(examples)
                .extracting(Example::path)
                .contains(
                        "/api/v1/turns",
                        "/api/v1/context",
                        "/api/v1/conversations/{id}/context",
                        "/api/v1/episodes/recall",
                        "/api/v1/messages/search");
        // Examples on paths with a conversation id run last, on a conversation an earlier example created.
        examples.sort(Comparator.comparing((Example e) -> e.path().contains("{"))
                .thenComparing(Example::path)
                .thenComparing(Example::name));
        Set<Long> conversations = new LinkedHashSet<>();
        List<String> refused = new ArrayList<>();
        try {
            for (Example example : examples) {
                String path = example.path();
                if (path.contains("{id}")) {
                    assertThat(conversations)
                            .as("a conversation created by an earlier example")
                            .isNotEmpty();
                    path = path.replace(
                            "{id}", Long.toString(conversations.iterator().next()));
                }
                assertThat(path).as("path templates other than {id}").doesNotContain("{");
                Api.Response response = api.send(HttpRequest.newBuilder(URI.create(api.base() + path))
                        .header("Content-Type", example.mediaType())
                        .method(
                                example.method().toUpperCase(Locale.ROOT),
                                HttpRequest.BodyPublishers.ofString(
                                        example.value().toString(), StandardCharsets.UTF_8)));
                if (response.status() / 100 != 2) {
                    refused.add(example.method() + " " + path + " example '" + example.name() + "': "
                            + response.status() + " " + response.body());
                } else if (response.body().startsWith("{")
                        && response.json().path("conversationId").isNumber()) {
                    conversations.add(response.json().get("conversationId").asLong());
                }
            }
        } finally {
            for (long id : conversations) {
                api.delete("/conversations/" + id);
            }
        }
        System.out.printf("[openapi] %d request examples sent%n", examples.size());
        assertThat(refused).as("request examples the server refuses").isEmpty();
    }

    /**
     * The error responses an operation must document: at least one 4xx; 503 with Retry-After (every resource has
     * a timeout or bulkhead); 400 for a JSON body, 413 and 415 for any body; 404 with a path parameter; and a
     * problem+json body for every error (HEAD answers have no body).
     */
    private static List<String> responseOffenders(String name, String method, String path, JsonNode operation) {
        List<String> offenders = new ArrayList<>();
        JsonNode responses = operation.path("responses");
        List<String> codes = new ArrayList<>();
        responses.fieldNames().forEachRemaining(codes::add);
        if (codes.stream().noneMatch(code -> code.startsWith("4"))) {
            offenders.add(name + ": no 4xx response");
        }
        for (String code : codes) {
            JsonNode response = responses.get(code);
            if (blank(response.get("description"))) {
                offenders.add(name + " " + code + ": no description");
            }
            if ((code.startsWith("4") || code.startsWith("5"))
                    && !method.equals("head")
                    && response.at("/content/application~1problem+json/schema").isMissingNode()) {
                offenders.add(name + " " + code + ": no application/problem+json body");
            }
        }
        if (responses.at("/503/headers/Retry-After").isMissingNode()) {
            offenders.add(name + ": no 503 with Retry-After");
        }
        JsonNode body = operation.at("/requestBody/content");
        if (!body.isMissingNode()) {
            if (body.has("application/json") && !responses.has("400")) {
                offenders.add(name + ": JSON body but no 400");
            }
            if (!responses.has("413") || !responses.has("415")) {
                offenders.add(name + ": a body but no 413 or no 415");
            }
        }
        if (path.contains("{") && !responses.has("404")) {
            offenders.add(name + ": a path parameter but no 404");
        }
        return offenders;
    }

    /**
     * Walks a schema's properties, their items and the members of allOf, anyOf and oneOf (inline schemas only:
     * a {@code $ref} names a component, walked on its own) and checks that every property has a description and
     * every reference names a component.
     *
     * @param counts [properties, properties with a description], added to
     */
    private static void properties(
            String owner, JsonNode schema, JsonNode components, List<String> offenders, int[] counts) {
        if (schema == null || schema.isMissingNode() || !schema.isObject()) {
            return;
        }
        JsonNode ref = schema.get("$ref");
        if (ref != null) {
            String name = ref.asText().replaceFirst("^#/components/schemas/", "");
            if (!components.has(name)) {
                offenders.add(owner + ": $ref " + ref.asText() + " names no schema");
            }
        }
        for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
            counts[0]++;
            if (blank(property.getValue().get("description"))) {
                offenders.add(owner + "." + property.getKey() + ": no description");
            } else {
                counts[1]++;
            }
            properties(owner + "." + property.getKey(), property.getValue(), components, offenders, counts);
        }
        properties(owner + "[]", schema.get("items"), components, offenders, counts);
        for (String combination : List.of("allOf", "anyOf", "oneOf")) {
            for (JsonNode member : schema.path(combination)) {
                properties(owner, member, components, offenders, counts);
            }
        }
    }

    private static boolean blank(JsonNode text) {
        return text == null || !text.isTextual() || text.asText().isBlank();
    }

    private static JsonNode document() {
        Api api = Api.postgres();
        Api.Response doc = api.send(HttpRequest.newBuilder(URI.create(api.base() + "/openapi?format=JSON"))
                .GET());
        assertThat(doc.status()).isEqualTo(200);
        return doc.json();
    }
}
