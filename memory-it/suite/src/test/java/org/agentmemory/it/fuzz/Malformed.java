package org.agentmemory.it.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The malformed requests of one operation (issue 31's fuzz test): invalid JSON, wrong types, missing and null
 * required fields, 5 MB strings, 10,000 levels of nesting, invalid UTF-8, NUL bytes, path ids that are negative,
 * zero, non-numeric or beyond 2^63, unknown enum values and unknown query parameters. Each request starts from a
 * plausible one built from the operation's schema and breaks one thing.
 */
public final class Malformed {

    /** The fewest requests sent per operation. */
    public static final int MIN_PER_OPERATION = 30;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String FIVE_MB = "f".repeat(5 * 1024 * 1024);
    private static final int DEPTH = 10_000;

    /**
     * One request.
     *
     * @param what        what is broken, for reports
     * @param target      the field or parameter the answer must name, or null when the whole request is broken
     * @param method      HTTP method
     * @param pathAndQuery the path below the server root, with an encoded query string
     * @param headers     extra headers
     * @param body        the body bytes, or null for none
     */
    public record Case(
            String what, String target, String method, String pathAndQuery, Map<String, String> headers, byte[] body) {

        /**
         * @param base  the server's base URL
         * @param token a bearer token sent unless the case sets {@code Authorization} itself, or null for none
         * @return the request, as the case says (a missing Content-Type stays missing)
         */
        public java.net.http.HttpRequest request(String base, String token) {
            java.net.http.HttpRequest.Builder builder = java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(base + pathAndQuery))
                    .timeout(java.time.Duration.ofSeconds(120))
                    .method(
                            method,
                            body == null
                                    ? java.net.http.HttpRequest.BodyPublishers.noBody()
                                    : java.net.http.HttpRequest.BodyPublishers.ofByteArray(body));
            headers.forEach(builder::header);
            if (token != null && !has("Authorization")) {
                builder.header("Authorization", "Bearer " + token);
            }
            return builder.build();
        }

        /** @return the case with a header added unless it has one of that name */
        public Case withHeaderIfAbsent(String name, String value) {
            if (has(name)) {
                return this;
            }
            Map<String, String> more = new java.util.LinkedHashMap<>(headers);
            more.put(name, value);
            return new Case(what, target, method, pathAndQuery, more, body);
        }

        private boolean has(String name) {
            return headers.keySet().stream().anyMatch(h -> h.equalsIgnoreCase(name));
        }
    }

    private final JsonNode doc;
    private final Operation op;
    private final Map<String, String> pathValues;

    /**
     * @param doc        the OpenAPI document
     * @param op         the operation
     * @param pathValues plausible values of path parameters by name (e.g. an existing conversation's id)
     */
    public Malformed(JsonNode doc, Operation op, Map<String, String> pathValues) {
        this.doc = doc;
        this.op = op;
        this.pathValues = pathValues;
    }

    /** @return the unbroken request the cases start from */
    public Case plausible() {
        return request("plausible", null, pathParams(Map.of()), queryParams(Map.of()), Map.of(), plausibleBody());
    }

    /** @return at least {@value #MIN_PER_OPERATION} malformed requests */
    public List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        if (op.body() != null) {
            bodyCases(cases);
        }
        for (Operation.Param p : op.parameters()) {
            switch (p.in()) {
                case "path" -> pathCases(cases, p);
                case "query" -> queryCases(cases, p);
                case "header" -> headerCases(cases, p);
                default -> {}
            }
        }
        String[] unknown = {
            "offset",
            "page",
            "zzUnknown",
            "Limit",
            "limit2",
            "__proto__",
            "a%00b",
            "%FF%FE",
            "sort",
            "fields",
            "x".repeat(300),
            "tenantId",
            "userid",
            "q",
            "debug",
            "format",
            "callback",
            "expand",
            "include",
            "size"
        };
        for (int i = 0; cases.size() < MIN_PER_OPERATION || i < 3; i++) {
            String name = unknown[i % unknown.length] + (i >= unknown.length ? String.valueOf(i) : "");
            cases.add(request(
                    "unknown query parameter " + name,
                    name,
                    pathParams(Map.of()),
                    queryParams(Map.of()) + "&" + name + "=1",
                    Map.of(),
                    plausibleBody()));
        }
        return cases;
    }

    private void bodyCases(List<Case> cases) {
        byte[] plausible = plausibleBody();
        String path = pathParams(Map.of());
        String query = queryParams(Map.of());
        bodyCase(cases, "truncated JSON", null, "{\"a\":".getBytes(StandardCharsets.UTF_8));
        bodyCase(cases, "trailing comma", null, "{\"a\":1,}".getBytes(StandardCharsets.UTF_8));
        bodyCase(cases, "empty body", null, new byte[0]);
        bodyCase(cases, "JSON null", null, "null".getBytes(StandardCharsets.UTF_8));
        bodyCase(cases, "JSON array", null, "[]".getBytes(StandardCharsets.UTF_8));
        bodyCase(cases, "JSON string", null, "\"text\"".getBytes(StandardCharsets.UTF_8));
        bodyCase(cases, "huge number", null, "123456789012345678901234567890".getBytes(StandardCharsets.UTF_8));
        bodyCase(cases, "10,000 levels of arrays", null, nested("[", "]"));
        bodyCase(cases, "10,000 levels of objects", null, nestedObjects());
        bodyCase(
                cases, "invalid UTF-8", null, withBytes(plausible, new byte[] {(byte) 0xFF, (byte) 0xFE, (byte) 0xC3}));
        bodyCase(cases, "raw NUL byte in a string", null, withBytes(plausible, new byte[] {0}));
        bodyCase(cases, "lone surrogate", null, withText(plausible, "\\ud800"));
        cases.add(request("text/plain body", null, path, query, Map.of("Content-Type", "text/plain"), plausible));
        ObjectNode unknownField = plausibleObject();
        unknownField.put("zzUnknownField", 1);
        bodyCase(cases, "unknown property", "zzUnknownField", bytes(unknownField));
        JsonNode props = op.body().path("properties");
        List<String> required = new ArrayList<>();
        op.body().path("required").forEach(r -> required.add(r.asText()));
        for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            JsonNode schema = Operation.resolve(doc, e.getValue());
            if (schema.path("readOnly").asBoolean(false)) {
                continue;
            }
            for (Map.Entry<String, JsonNode> wrong : wrongValues(schema).entrySet()) {
                ObjectNode b = plausibleObject();
                b.set(name, wrong.getValue());
                bodyCase(cases, name + " " + wrong.getKey(), name, bytes(b));
            }
            if (required.contains(name)) {
                ObjectNode missing = plausibleObject();
                missing.remove(name);
                bodyCase(cases, name + " missing", name, bytes(missing));
                ObjectNode nul = plausibleObject();
                nul.putNull(name);
                bodyCase(cases, name + " null", name, bytes(nul));
            }
        }
        String first = firstStringProperty();
        if (first != null) {
            ObjectNode big = plausibleObject();
            big.put(first, FIVE_MB);
            bodyCase(cases, first + " of 5 MB", null, bytes(big));
            ObjectNode nul = plausibleObject();
            nul.put(first, "a\u0000b");
            bodyCase(cases, first + " with an escaped NUL", first, bytes(nul));
        } else {
            ObjectNode big = plausibleObject();
            big.put("zzLarge", FIVE_MB);
            bodyCase(cases, "5 MB unknown property", null, bytes(big));
        }
    }

    private void bodyCase(List<Case> cases, String what, String target, byte[] body) {
        cases.add(request(
                what,
                target,
                pathParams(Map.of()),
                queryParams(Map.of()),
                Map.of("Content-Type", op.bodyType()),
                body));
    }

    /** Wrong values for a property of this schema, by description. */
    private Map<String, JsonNode> wrongValues(JsonNode schema) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        String type = schema.path("type").asText("");
        switch (type) {
            case "string" -> {
                out.put("as a number", NODES.numberNode(12345));
                out.put("as an object", NODES.objectNode().put("a", 1));
                if (schema.has("enum")) {
                    out.put("an unknown enum value", NODES.textNode("not-a-known-value"));
                }
                if ("date-time".equals(schema.path("format").asText())) {
                    out.put("not a date-time", NODES.textNode("yesterday"));
                }
            }
            case "integer", "number" -> {
                out.put("as text", NODES.textNode("abc"));
                out.put("beyond 2^63", NODES.numberNode(new java.math.BigInteger("9223372036854775808")));
                out.put("negative", NODES.numberNode(-1));
                out.put("1e400", NODES.numberNode(new java.math.BigDecimal("1e400")));
                if (type.equals("integer")) {
                    out.put("fractional", NODES.numberNode(1.5));
                }
            }
            case "boolean" -> out.put("as text", NODES.textNode("yes"));
            case "array" -> {
                out.put("as text", NODES.textNode("not an array"));
                out.put("as an object", NODES.objectNode());
            }
            case "object" -> {
                out.put("as text", NODES.textNode("not an object"));
                out.put("as an array", NODES.arrayNode().add(1));
            }
            default -> out.put("as an array of arrays", NODES.arrayNode().add(NODES.arrayNode()));
        }
        return out;
    }

    private void pathCases(List<Case> cases, Operation.Param p) {
        String[] values = {"-1", "0", "abc", "9223372036854775808", "99999999999999999999999", "1e3", "%00", "%FF%FE"};
        for (String v : values) {
            cases.add(request(
                    "path " + p.name() + "=" + v,
                    p.name(),
                    pathParams(Map.of(p.name(), v)),
                    queryParams(Map.of()),
                    bodyHeaders(),
                    plausibleBody()));
        }
    }

    private void queryCases(List<Case> cases, Operation.Param p) {
        String[] values = {"", "-1", "0", "abc", "9223372036854775808", "%00", "%FF%FE", "x".repeat(5000), "1.5"};
        for (String v : values) {
            cases.add(request(
                    "query " + p.name() + "=" + (v.length() > 20 ? v.length() + " chars" : v),
                    p.name(),
                    pathParams(Map.of()),
                    queryParams(Map.of(p.name(), v)),
                    bodyHeaders(),
                    plausibleBody()));
        }
    }

    private void headerCases(List<Case> cases, Operation.Param p) {
        for (String v : new String[] {"abc", "\"", "W/\"x\"", "x".repeat(5000), "-1"}) {
            Map<String, String> headers = new LinkedHashMap<>(bodyHeaders());
            headers.put(p.name(), v);
            cases.add(request(
                    "header " + p.name(),
                    p.name(),
                    pathParams(Map.of()),
                    queryParams(Map.of()),
                    headers,
                    plausibleBody()));
        }
    }

    private Map<String, String> bodyHeaders() {
        return op.body() == null ? Map.of() : Map.of("Content-Type", op.bodyType());
    }

    private Case request(
            String what, String target, String path, String query, Map<String, String> headers, byte[] body) {
        String q = query.isEmpty() ? "" : "?" + (query.startsWith("&") ? query.substring(1) : query);
        return new Case(what, target, op.method(), path + q, headers, body);
    }

    /** The path with each parameter replaced by a plausible value, or by an override (taken as already encoded). */
    private String pathParams(Map<String, String> overrides) {
        String path = op.path();
        for (Operation.Param p : op.parameters()) {
            if (p.in().equals("path")) {
                String value = overrides.containsKey(p.name())
                        ? overrides.get(p.name())
                        : encode(pathValues.getOrDefault(p.name(), plausibleText(p.name(), p.schema())));
                path = path.replaceAll("\\{" + p.name() + "(:[^}]*(\\{[^}]*\\}[^}]*)*)?\\}", value);
            }
        }
        return path.startsWith("/api/v1") ? path : "/api/v1" + path;
    }

    /** Required query parameters with plausible values, and overrides (taken as already encoded). */
    private String queryParams(Map<String, String> overrides) {
        StringBuilder q = new StringBuilder();
        for (Operation.Param p : op.parameters()) {
            if (!p.in().equals("query")) {
                continue;
            }
            String value = overrides.containsKey(p.name())
                    ? overrides.get(p.name())
                    : p.required() || p.name().equals("agentId") || p.name().equals("userId")
                            ? encode(plausibleText(p.name(), p.schema()))
                            : null;
            if (value != null) {
                q.append('&').append(p.name()).append('=').append(value);
            }
        }
        return q.toString();
    }

    private String plausibleText(String name, JsonNode schema) {
        JsonNode value = plausible(schema, name, 0);
        return value.isTextual() ? value.asText() : value.toString();
    }

    private byte[] plausibleBody() {
        return op.body() == null ? null : bytes(plausibleObject());
    }

    private ObjectNode plausibleObject() {
        JsonNode value = plausible(op.body(), "body", 0);
        return value instanceof ObjectNode o ? o : NODES.objectNode();
    }

    /** A value of the schema: its example, else its first enum value, else a value of its type. */
    private JsonNode plausible(JsonNode schemaOrRef, String name, int depth) {
        JsonNode schema = Operation.resolve(doc, schemaOrRef);
        if (schema.has("example")) {
            return schema.get("example");
        }
        if (schema.has("enum") && !schema.get("enum").isEmpty()) {
            return schema.get("enum").get(0);
        }
        String type = schema.path("type").asText(schema.has("properties") ? "object" : "string");
        return switch (type) {
            case "integer", "number" ->
                NODES.numberNode(Math.max(1, schema.path("minimum").asLong(1)));
            case "boolean" -> NODES.booleanNode(false);
            case "array" ->
                depth > 4 ? NODES.arrayNode() : NODES.arrayNode().add(plausible(schema.path("items"), name, depth + 1));
            case "object" -> {
                ObjectNode o = NODES.objectNode();
                if (depth <= 4) {
                    List<String> required = new ArrayList<>();
                    schema.path("required").forEach(r -> required.add(r.asText()));
                    for (Iterator<Map.Entry<String, JsonNode>> it =
                                    schema.path("properties").fields();
                            it.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = it.next();
                        if (required.contains(e.getKey()) || e.getKey().endsWith("Id")) {
                            o.set(e.getKey(), plausible(e.getValue(), e.getKey(), depth + 1));
                        }
                    }
                }
                yield o;
            }
            default ->
                NODES.textNode(
                        "date-time".equals(schema.path("format").asText())
                                ? "2026-01-01T00:00:00Z"
                                : "uuid".equals(schema.path("format").asText())
                                        ? "00000000-0000-4000-8000-000000000000"
                                        : "fuzz-" + name);
        };
    }

    private String firstStringProperty() {
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        op.body().path("properties").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode schema = Operation.resolve(doc, e.getValue());
            if ("string".equals(schema.path("type").asText()) && !schema.has("enum")) {
                return e.getKey();
            }
        }
        return null;
    }

    private static byte[] nested(String open, String close) {
        return (open.repeat(DEPTH) + close.repeat(DEPTH)).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] nestedObjects() {
        return ("{\"a\":".repeat(DEPTH) + "1" + "}".repeat(DEPTH)).getBytes(StandardCharsets.UTF_8);
    }

    /** The body with raw bytes inserted just after the first string's opening quote (or wrapped when none). */
    private static byte[] withBytes(byte[] body, byte[] insert) {
        int quote = indexOfStringValue(body);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (quote < 0) {
            out.writeBytes("{\"zz\":\"".getBytes(StandardCharsets.UTF_8));
            out.writeBytes(insert);
            out.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
            return out.toByteArray();
        }
        out.write(body, 0, quote + 1);
        out.writeBytes(insert);
        out.write(body, quote + 1, body.length - quote - 1);
        return out.toByteArray();
    }

    private static byte[] withText(byte[] body, String escaped) {
        return withBytes(body, escaped.getBytes(StandardCharsets.UTF_8));
    }

    /** Index of the opening quote of the first string value ({@code ":"} then a quote), or -1. */
    private static int indexOfStringValue(byte[] body) {
        if (body == null) {
            return -1;
        }
        for (int i = 0; i + 1 < body.length; i++) {
            if (body[i] == ':' && body[i + 1] == '"') {
                return i + 1;
            }
        }
        return -1;
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
