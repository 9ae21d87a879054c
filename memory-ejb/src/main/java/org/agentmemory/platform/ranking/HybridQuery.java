package org.agentmemory.platform.ranking;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON of an OpenSearch {@code hybrid} query (neural-search plugin) for hybrid recall on the engine (issue 36
 * item 4): two sub-queries, in this order, each holding the whole scope filter:
 * <ol>
 * <li>full text: {@code bool} with {@code must: match} on the text field (the field's own search analyzer, terms
 * OR-ed, as Hibernate Search's {@code match} predicate sends it) and {@code filter}: one {@code term} per scope
 * field;</li>
 * <li>vector: {@code knn} on the vector field with {@code k} neighbours and a {@code filter} holding the same
 * {@code term}s (efficient filtering: the k neighbours are taken from the scope, not filtered afterwards).</li>
 * </ol>
 * A {@code hybrid} query must be the request's top-level query and must run through a search pipeline
 * ({@link HybridPipeline}); without one OpenSearch returns meaningless scores.
 *
 * <p>Field names are index field names as Hibernate Search writes them (property names of the {@code @Indexed}
 * entity). Pure; no container types.
 */
public final class HybridQuery {

    private HybridQuery() {}

    /**
     * @param textField   the full-text field, e.g. {@code searchText}
     * @param text        the query text, not {@code null}
     * @param vectorField the {@code knn_vector} field, e.g. {@code embedding}
     * @param vector      the query vector, not {@code null}, finite components
     * @param k           neighbours of the vector sub-query, ≥ 1
     * @param scope       field → value that every hit must hold exactly (a {@code String}, {@code Number} or
     *                    {@code Boolean}); iteration order is kept; at least one entry
     * @return the query object, {@code {"hybrid":{"queries":[…]}}}
     * @throws IllegalArgumentException when the scope is empty, a value has another type, a component is not
     *                                  finite, or {@code k < 1}
     */
    public static String of(
            String textField, String text, String vectorField, float[] vector, int k, Map<String, ?> scope) {
        if (scope.isEmpty()) {
            throw new IllegalArgumentException("a hybrid query needs a scope: at least the tenant");
        }
        if (k < 1) {
            throw new IllegalArgumentException("k is " + k + "; it must be ≥ 1");
        }
        String filter = filter(scope);
        StringBuilder json = new StringBuilder(64 + vector.length * 12);
        json.append("{\"hybrid\":{\"queries\":[");
        json.append("{\"bool\":{\"must\":[{\"match\":{")
                .append(quote(textField))
                .append(":{\"query\":")
                .append(quote(text))
                .append("}}}],\"filter\":")
                .append(filter)
                .append("}},");
        json.append("{\"knn\":{").append(quote(vectorField)).append(":{\"vector\":[");
        for (int i = 0; i < vector.length; i++) {
            if (!Float.isFinite(vector[i])) {
                throw new IllegalArgumentException("vector component " + i + " is " + vector[i]);
            }
            if (i > 0) {
                json.append(',');
            }
            json.append(vector[i]);
        }
        json.append("],\"k\":")
                .append(k)
                .append(",\"filter\":{\"bool\":{\"filter\":")
                .append(filter)
                .append("}}}}}");
        json.append("]}}");
        return json.toString();
    }

    /**
     * A scope as an ordered map, leaving out {@code null} values (an absent filter).
     *
     * @param fieldsAndValues field, value, field, value, …
     * @return the scope
     */
    public static Map<String, Object> scope(Object... fieldsAndValues) {
        Map<String, Object> scope = new LinkedHashMap<>();
        for (int i = 0; i + 1 < fieldsAndValues.length; i += 2) {
            if (fieldsAndValues[i + 1] != null) {
                scope.put((String) fieldsAndValues[i], fieldsAndValues[i + 1]);
            }
        }
        return scope;
    }

    private static String filter(Map<String, ?> scope) {
        StringBuilder json = new StringBuilder("[");
        for (Map.Entry<String, ?> e : scope.entrySet()) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append("{\"term\":{").append(quote(e.getKey())).append(':');
            Object value = e.getValue();
            if (value instanceof String s) {
                json.append(quote(s));
            } else if (value instanceof Number || value instanceof Boolean) {
                json.append(value);
            } else {
                throw new IllegalArgumentException("scope value of " + e.getKey() + " is "
                        + (value == null ? "null" : value.getClass().getName()) + "; use String, Number or Boolean");
            }
            json.append("}}");
        }
        return json.append(']').toString();
    }

    /**
     * @param s any text
     * @return it as a JSON string literal (RFC 8259 escapes: quote, backslash, control characters)
     */
    static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
