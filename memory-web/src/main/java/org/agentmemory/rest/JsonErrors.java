package org.agentmemory.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/** Turns Jackson's exceptions into a 400 naming the JSON path, or into the same words for other reports. */
public final class JsonErrors {
    private JsonErrors() {}

    /**
     * What went wrong in a JSON document, in the words of the problem responses.
     *
     * @param field  the JSON path of the offending value ({@code key.userId}, {@code turns[2].turnId}), or
     *               {@code null} when the document as a whole is wrong
     * @param rule   {@code unknown-property}, {@code type}, {@code invalid-value} or {@code json-syntax}
     * @param detail a sentence for people, naming the field and the rule
     */
    public record Described(String field, String rule, String detail) {}

    static Response problem(JsonProcessingException e, UriInfo uri) {
        Described d = describe(e);
        return Problems.badRequest(d.field(), d.rule(), d.detail(), uri);
    }

    /**
     * @param e what Jackson threw
     * @return the field, rule and sentence the service reports for it
     */
    public static Described describe(JsonProcessingException e) {
        return describe(e, "The body");
    }

    /**
     * @param e       what Jackson threw
     * @param subject what the document is called in sentences ({@code "The body"}, {@code "The line"})
     * @return the field, rule and sentence the service reports for it
     */
    public static Described describe(JsonProcessingException e, String subject) {
        String field = null;
        com.fasterxml.jackson.core.exc.InputCoercionException coercion =
                e instanceof com.fasterxml.jackson.core.exc.InputCoercionException direct
                        ? direct
                        : e.getCause() instanceof com.fasterxml.jackson.core.exc.InputCoercionException wrapped
                                ? wrapped
                                : null;
        String rule;
        String detail;
        if (e instanceof JsonMappingException mapping) {
            field = path(mapping);
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            rule = "unknown-property";
            detail = "Unknown property '" + unknown.getPropertyName() + "'" + (field == null ? "" : " at " + field)
                    + "; known properties: " + unknown.getKnownPropertyIds() + ".";
        } else if (coercion != null) {
            // Valid JSON holding a number too large for its field.
            rule = "range";
            field = field != null ? field : parserPath(coercion);
            detail = (field == null ? "A number" : field) + " is out of range: " + clean(coercion.getOriginalMessage())
                    + location(coercion) + ".";
        } else if (e instanceof ValueInstantiationException inst) {
            rule = "invalid-value";
            Throwable cause = inst.getCause();
            String reason = cause instanceof IllegalArgumentException && cause.getMessage() != null
                    ? cause.getMessage()
                    : "the value cannot be accepted";
            detail = (field == null ? subject : field) + " is invalid: " + reason + ".";
        } else if (e instanceof MismatchedInputException mismatch
                && String.valueOf(mismatch.getOriginalMessage()).startsWith("Trailing token")) {
            rule = "json-syntax";
            field = null;
            detail = "More JSON follows the first value" + location(e)
                    + "; send exactly one JSON value (for an import, one JSON object per line).";
        } else if (e instanceof MismatchedInputException mismatch) {
            rule = "type";
            String found = found(mismatch);
            if (found == null && String.valueOf(mismatch.getOriginalMessage()).contains("end-of-input")) {
                found = "the end of the input (the JSON is truncated)";
            }
            detail = (field == null ? subject : field) + " must be " + expected(mismatch.getTargetType())
                    + (found == null ? "" : ", not " + found) + ".";
        } else {
            rule = "json-syntax";
            String reason = clean(e.getOriginalMessage());
            if (reason.contains("end-of-input")) {
                reason += " (the JSON is truncated)";
            }
            detail = subject + " is not valid JSON: " + reason + location(e);
        }
        return new Described(field, rule, withoutPackages(detail));
    }

    /** Jackson's sentence without its source excerpts and the Java names of its settings. */
    private static String clean(String message) {
        return String.valueOf(message)
                .replaceAll("\\s*\\((?:start marker at )?\\[Source:[^\\]]*\\][^)]*\\)", "")
                .replaceAll("\\s*\\[Source:[^\\]]*\\]", "")
                .replaceAll(",?\\s*\\(?from `[^`]*`\\)?", "")
                .replaceAll("\\s*\\(?`[A-Za-z_.]+(?:\\(\\))?`\\)?", "");
    }

    /** The dotted path of the value the parser stood on ({@code turn.toolInvocations[0].elapsedMs}). */
    private static String parserPath(com.fasterxml.jackson.core.exc.InputCoercionException e) {
        com.fasterxml.jackson.core.JsonParser parser = e.getProcessor();
        if (parser == null) {
            return null;
        }
        java.util.Deque<String> parts = new java.util.ArrayDeque<>();
        for (com.fasterxml.jackson.core.JsonStreamContext c = parser.getParsingContext();
                c != null && !c.inRoot();
                c = c.getParent()) {
            if (c.inObject() && c.getCurrentName() != null) {
                parts.addFirst("." + c.getCurrentName());
            } else if (c.inArray()) {
                parts.addFirst("[" + Math.max(0, c.getCurrentIndex()) + "]");
            }
        }
        String path = String.join("", parts);
        return path.isEmpty() ? null : path.startsWith(".") ? path.substring(1) : path;
    }

    /** What a Java target type looks like in JSON, for people who never see the Java code. */
    static String expected(Class<?> type) {
        if (type == null) {
            return "a different JSON value";
        }
        if (type == String.class || type == Character.class || type == char.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == Integer.class
                || type == int.class
                || type == Long.class
                || type == long.class
                || type == Short.class
                || type == short.class
                || type == java.math.BigInteger.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type.isEnum()) {
            return "one of " + java.util.Arrays.toString(type.getEnumConstants());
        }
        if (type == java.time.Instant.class || type == java.time.OffsetDateTime.class) {
            return "an ISO-8601 timestamp string such as 2026-01-31T12:00:00Z";
        }
        if (type.isArray() || java.util.Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        return "an object";
    }

    private static final java.util.regex.Pattern FOUND = java.util.regex.Pattern.compile(
            "(?:from|coerce) (Array|Object|String|Integer|Floating-point|Boolean|Null|empty String)"
                    + "(?: value)?(?: \\(?\\(?(\"[^\"]{0,80}\"|'[^']{0,80}')\\)?)?");

    /** What the JSON had where the mismatch happened (from Jackson's message), or {@code null} when unknown. */
    static String found(MismatchedInputException e) {
        java.util.regex.Matcher m = FOUND.matcher(String.valueOf(e.getOriginalMessage()));
        if (!m.find()) {
            return null;
        }
        String value = m.group(2) == null ? "" : " " + m.group(2).replace('\'', '"');
        return switch (m.group(1)) {
            case "Array" -> "an array";
            case "Object" -> "an object";
            case "String" -> "a string" + value;
            case "empty String" -> "an empty string";
            case "Integer" -> "an integer";
            case "Floating-point" -> "a decimal number";
            case "Boolean" -> "a boolean";
            default -> "null";
        };
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null
                ? ""
                : " (line " + e.getLocation().getLineNr() + ", column "
                        + e.getLocation().getColumnNr() + ")";
    }

    /** Jackson names types by their Java class ({@code `org.agentmemory.x.JsonlLine`}); clients see {@code `JsonlLine`}. */
    static String withoutPackages(String message) {
        return message == null ? null : message.replaceAll("\\b(?:[a-z_$][\\w$]*\\.)+([A-Z][\\w$]*)", "$1");
    }

    private static String path(JsonMappingException e) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                out.append('[').append(ref.getIndex()).append(']');
            }
        }
        return out.length() == 0 ? null : out.toString();
    }
}
