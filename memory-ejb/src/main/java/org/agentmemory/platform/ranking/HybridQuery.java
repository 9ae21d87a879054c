package org.agentmemory.platform.ranking;

import java.util.LinkedHashMap;
import java.util.List;
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
 * The general form ({@link #of(List, String, String, float[], Neighbours, Filter)}, episodic recall) also takes
 * several text fields, radial search ({@code min_score} instead of {@code k}), raw filter clauses in both sub-queries
 * (e.g. an expiry {@code range}) and terms of the vector sub-query alone.
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
     * @see #of(List, String, String, float[], Neighbours, Filter)
     */
    public static String of(
            String textField, String text, String vectorField, float[] vector, int k, Map<String, ?> scope) {
        return of(List.of(textField), text, vectorField, vector, Neighbours.nearest(k), Filter.of(scope));
    }

    /**
     * How the vector sub-query bounds its neighbours: the {@code k} nearest ({@code minScore} is 0), or radial
     * search, every neighbour whose engine score is at least {@code minScore} ({@code k} is 0). Radial search needs
     * OpenSearch 2.14 or later (k-NN plugin, lucene or faiss engine).
     *
     * @param k        neighbours, ≥ 1, or 0 for radial search
     * @param minScore the least engine score of a neighbour, in (0, 1] for the lucene engine's {@code cosinesimil}
     *                 ({@code (1 + cos) / 2}), or 0 for the k nearest
     */
    public record Neighbours(int k, double minScore) {

        /**
         * @throws IllegalArgumentException unless exactly one of {@code k ≥ 1} and a finite {@code minScore > 0}
         */
        public Neighbours {
            if (k < 1 && !(minScore > 0 && Double.isFinite(minScore))) {
                throw new IllegalArgumentException(
                        "k is " + k + " and min_score " + minScore + "; one needs k ≥ 1 or a finite min_score > 0");
            }
            if (k >= 1 && minScore != 0) {
                throw new IllegalArgumentException("k (" + k + ") and min_score (" + minScore + ") are exclusive");
            }
        }

        /**
         * @param k neighbours, ≥ 1
         * @return the k nearest
         */
        public static Neighbours nearest(int k) {
            return new Neighbours(k, 0);
        }

        /**
         * @param minScore the least engine score, finite, &gt; 0
         * @return radial search
         */
        public static Neighbours within(double minScore) {
            return new Neighbours(0, minScore);
        }
    }

    /**
     * The filter of a hybrid query.
     *
     * @param terms       field → value every hit must hold exactly ({@code term}, a {@code String}, {@code Number} or
     *                    {@code Boolean}), in both sub-queries; iteration order kept; at least one entry (the tenant)
     * @param clauses     further filter clauses as raw JSON objects (e.g. a {@code range} or a {@code bool} with
     *                    {@code must_not}), in both sub-queries after the terms; not {@code null}, may be empty. They
     *                    are copied verbatim: callers build them from trusted field names and JSON-encoded values
     * @param vectorTerms terms of the vector sub-query alone (e.g. the model that made the stored vectors), after the
     *                    others; not {@code null}, may be empty
     */
    public record Filter(Map<String, ?> terms, List<String> clauses, Map<String, ?> vectorTerms) {

        /**
         * @param terms the terms of both sub-queries
         * @return a filter of those terms alone
         */
        public static Filter of(Map<String, ?> terms) {
            return new Filter(terms, List.of(), Map.of());
        }
    }

    /**
     * A hybrid query over one or several text fields, with radial or k-nearest vector search and a filter of terms
     * and raw clauses (issue 36 item 4, episodic recall). With one text field the full-text sub-query is that of
     * {@link #of(String, String, String, float[], int, Map)}; with several it is a {@code bool} of {@code should}
     * {@code match}es, one per field (at least one must match; scores add up), as Hibernate Search sends a
     * {@code match} predicate on several fields.
     *
     * @param textFields  the full-text fields, at least one
     * @param text        the query text, not {@code null}
     * @param vectorField the {@code knn_vector} field
     * @param vector      the query vector, finite components
     * @param neighbours  k nearest or radial
     * @param filter      the filter of both sub-queries (and of the vector one alone)
     * @return the query object, {@code {"hybrid":{"queries":[…]}}}
     * @throws IllegalArgumentException when there is no text field or term, a term value has another type, or a
     *                                  component is not finite
     */
    public static String of(
            List<String> textFields,
            String text,
            String vectorField,
            float[] vector,
            Neighbours neighbours,
            Filter filter) {
        return of(textFields, text, vectorField, vector, neighbours, filter, 0);
    }

    /**
     * {@link #of(List, String, String, float[], Neighbours, Filter)} with the hybrid query's {@code pagination_depth}
     * (OpenSearch 2.19): how many results each sub-query keeps per shard before fusion. Without it each sub-query
     * keeps the request's {@code from + size}; with it a request may ask for the whole fused union of two legs of
     * {@code paginationDepth} each (size {@code 2 × paginationDepth}), as client-side fusion sees it.
     *
     * @param paginationDepth results per sub-query and shard, ≥ 1, or 0 to leave it to the request's size
     * @return the query object
     * @throws IllegalArgumentException as the overload, or when {@code paginationDepth < 0}
     */
    public static String of(
            List<String> textFields,
            String text,
            String vectorField,
            float[] vector,
            Neighbours neighbours,
            Filter filter,
            int paginationDepth) {
        if (paginationDepth < 0) {
            throw new IllegalArgumentException("pagination depth is " + paginationDepth + "; it must be ≥ 0");
        }
        if (filter.terms().isEmpty()) {
            throw new IllegalArgumentException("a hybrid query needs a scope: at least the tenant");
        }
        if (textFields.isEmpty()) {
            throw new IllegalArgumentException("a hybrid query needs at least one text field");
        }
        StringBuilder both = new StringBuilder(terms(filter.terms()));
        for (String clause : filter.clauses()) {
            both.append(',').append(clause);
        }
        String common = both.toString();
        String vectorOnly = terms(filter.vectorTerms());
        String vectorFilter = vectorOnly.isEmpty() ? common : common + "," + vectorOnly;
        StringBuilder json = new StringBuilder(64 + vector.length * 12);
        json.append("{\"hybrid\":{\"queries\":[");
        json.append("{\"bool\":{\"must\":[");
        if (textFields.size() > 1) {
            json.append("{\"bool\":{\"should\":[");
        }
        for (int i = 0; i < textFields.size(); i++) {
            json.append(i > 0 ? "," : "")
                    .append("{\"match\":{")
                    .append(quote(textFields.get(i)))
                    .append(":{\"query\":")
                    .append(quote(text))
                    .append("}}}");
        }
        if (textFields.size() > 1) {
            json.append("]}}");
        }
        json.append("],\"filter\":[").append(common).append("]}},");
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
        json.append("],");
        if (neighbours.k() >= 1) {
            json.append("\"k\":").append(neighbours.k());
        } else {
            json.append("\"min_score\":").append(neighbours.minScore());
        }
        json.append(",\"filter\":{\"bool\":{\"filter\":[").append(vectorFilter).append("]}}}}}");
        json.append(']');
        if (paginationDepth > 0) {
            json.append(",\"pagination_depth\":").append(paginationDepth);
        }
        json.append("}}");
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

    /** The terms as comma-separated {@code term} objects (no brackets), empty for none. */
    private static String terms(Map<String, ?> scope) {
        StringBuilder json = new StringBuilder();
        for (Map.Entry<String, ?> e : scope.entrySet()) {
            if (json.length() > 0) {
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
        return json.toString();
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
