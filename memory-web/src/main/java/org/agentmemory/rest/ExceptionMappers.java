package org.agentmemory.rest;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.inject.Inject;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.VersionConflictException;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;

/**
 * One exception mapper per failure kind, all answering RFC 9457 problem details.
 */
public final class ExceptionMappers {

    private static final Logger LOG = Logger.getLogger(ExceptionMappers.class.getName());

    private ExceptionMappers() {
    }

    /** @return the first throwable of the given type in the cause chain, or {@code null} */
    static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /** 400: a business rule on an input field ({@link InvalidInputException}). */
    @Provider
    public static class InvalidInput implements ExceptionMapper<InvalidInputException> {
        @Context
        UriInfo uri;

        @Override
        public Response toResponse(InvalidInputException e) {
            return Problems.badRequest(e.field(), e.rule(), e.getMessage(), uri);
        }
    }

    /** 404. */
    @Provider
    public static class NotFound implements ExceptionMapper<NotFoundException> {
        @Context
        UriInfo uri;

        @Override
        public Response toResponse(NotFoundException e) {
            return Problems.of(404, e.kind(), "Not found", e.getMessage(), null, null, uri).build();
        }
    }

    /** 409: an optimistic write lost. */
    @Provider
    public static class VersionConflict implements ExceptionMapper<VersionConflictException> {
        @Context
        UriInfo uri;

        @Override
        public Response toResponse(VersionConflictException e) {
            return Problems.of(409, e.kind(), "Version conflict", e.getMessage(), null, null, uri)
                    .tag(Long.toString(e.actualVersion())).build();
        }
    }

    /** 400: a Bean Validation constraint on a parameter or body field. */
    @Provider
    public static class ConstraintViolations implements ExceptionMapper<ConstraintViolationException> {
        @Context
        UriInfo uri;

        @Override
        public Response toResponse(ConstraintViolationException e) {
            ConstraintViolation<?> first = e.getConstraintViolations().stream()
                    .sorted((a, b) -> a.getPropertyPath().toString().compareTo(b.getPropertyPath().toString()))
                    .findFirst().orElse(null);
            if (first == null) {
                return Problems.badRequest(null, "constraint", e.getMessage(), uri);
            }
            String field = fieldOf(first.getPropertyPath());
            String rule = first.getConstraintDescriptor().getAnnotation().annotationType().getSimpleName();
            StringBuilder detail = new StringBuilder(first.getMessage());
            if (e.getConstraintViolations().size() > 1) {
                detail.append(" (and ").append(e.getConstraintViolations().size() - 1).append(" more: ");
                e.getConstraintViolations().stream().filter(v -> v != first)
                        .forEach(v -> detail.append(v.getMessage()).append("; "));
                detail.setLength(detail.length() - 2);
                detail.append(')');
            }
            return Problems.badRequest(field, kebab(rule), detail.toString(), uri);
        }

        /** The parameter or property name, without the method and argument nodes. */
        private static String fieldOf(Path path) {
            java.util.List<Path.Node> nodes = new java.util.ArrayList<>();
            path.forEach(nodes::add);
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < nodes.size(); i++) {
                Path.Node node = nodes.get(i);
                if (node.getKind() == ElementKind.METHOD || node.getKind() == ElementKind.CONSTRUCTOR
                        || node.getKind() == ElementKind.RETURN_VALUE) {
                    continue;
                }
                // The body parameter's own name ("body") is not part of the JSON path of its properties.
                if (node.getKind() == ElementKind.PARAMETER && i + 1 < nodes.size()) {
                    continue;
                }
                if (node.getName() == null) {
                    continue;
                }
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(node.getName());
                if (node.getIndex() != null) {
                    out.append('[').append(node.getIndex()).append(']');
                }
            }
            return out.length() == 0 ? null : out.toString();
        }

        private static String kebab(String camel) {
            return camel.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** 400: the body is not the JSON the endpoint expects. */
    @Provider
    public static class BadJson implements ExceptionMapper<JsonProcessingException> {
        @Context
        UriInfo uri;

        @Override
        public Response toResponse(JsonProcessingException e) {
            BodyLimitFilter.BodyTooLargeException tooLarge = cause(e, BodyLimitFilter.BodyTooLargeException.class);
            if (tooLarge != null) {
                return BodyLimitFilter.tooLarge(tooLarge.limit(), uri);
            }
            return JsonErrors.problem(e, uri);
        }
    }

    /** 503 + Retry-After: a fault-tolerance policy gave up outside a fallback. */
    @Provider
    public static class FaultTolerance implements ExceptionMapper<FaultToleranceException> {
        @Context
        UriInfo uri;

        @Inject
        RestSettings settings;

        @Override
        public Response toResponse(FaultToleranceException e) {
            return ServiceUnavailableFallback.response(e, settings.retryAfterSeconds(), uri);
        }
    }

    /** Keeps the status of JAX-RS errors (404 unknown path, 405, 406, 413, 415 …) and renders a problem. */
    @Provider
    public static class WebApplication implements ExceptionMapper<WebApplicationException> {
        @Context
        UriInfo uri;

        @Context
        jakarta.ws.rs.core.HttpHeaders headers;

        @Context
        jakarta.ws.rs.core.Request request;

        @Override
        public Response toResponse(WebApplicationException e) {
            Response original = e.getResponse();
            int status = original == null ? 500 : original.getStatus();
            if (original != null && Problem.MEDIA_TYPE.equals(String.valueOf(original.getMediaType()))) {
                return original;
            }
            BodyLimitFilter.BodyTooLargeException tooLarge = cause(e, BodyLimitFilter.BodyTooLargeException.class);
            if (tooLarge != null) {
                return BodyLimitFilter.tooLarge(tooLarge.limit(), uri);
            }
            Throwable cause = e.getCause();
            if (status == 400 && cause instanceof JsonProcessingException json) {
                return JsonErrors.problem(json, uri);
            }
            if (status >= 500) {
                return Unexpected.respond(e, uri);
            }
            Response.StatusType type = Response.Status.fromStatusCode(status);
            String title = type == null ? "HTTP " + status : type.getReasonPhrase();
            // RESTEasy prefixes its messages with a message id ("RESTEASY003065: …"): clients get the sentence.
            String detail = e.getMessage() == null ? title : e.getMessage().replaceFirst("^[A-Z]+\\d+: ", "");
            java.util.regex.Matcher param = java.util.regex.Pattern
                    .compile("(PathParam|QueryParam|HeaderParam)\\(\\\"([^\\\"]+)\\\"\\) value is '(.*)'$").matcher(detail);
            String field = null;
            if (param.find()) {
                // RESTEasy could not convert a parameter (a path id that is not a number, say).
                field = param.group(2);
                detail = field + " must be a whole number here; '" + param.group(3) + "' is not"
                        + (status == 404 ? ", so there is no such resource." : ".");
            }
            if (status == 405) {
                String allowed = original == null ? null : original.getHeaderString("Allow");
                detail = (request == null ? "This method" : request.getMethod()) + " is not allowed on this path"
                        + (allowed == null ? "." : "; allowed: " + allowed + ".");
            }
            if (status == 415) {
                String sent = headers == null ? null : headers.getHeaderString("Content-Type");
                detail = "This endpoint does not accept " + (sent == null ? "a body without a Content-Type"
                        : "Content-Type '" + sent + "'") + "; send application/json (application/x-ndjson for"
                        + " /import), as the OpenAPI document at /openapi lists.";
            }
            Response.ResponseBuilder builder = Problems.of(status, "http-" + status, title, detail, field, null, uri);
            if (original != null) {
                original.getHeaders().forEach((name, values) -> {
                    if (!"Content-Type".equalsIgnoreCase(name) && !"Content-Length".equalsIgnoreCase(name)) {
                        values.forEach(v -> builder.header(name, v));
                    }
                });
            }
            return builder.build();
        }
    }

    /** 500 for anything unexpected: logged with an id the client can quote; no internals in the body. */
    @Provider
    public static class Unexpected implements ExceptionMapper<Throwable> {
        @Context
        UriInfo uri;

        @Override
        public Response toResponse(Throwable e) {
            BodyLimitFilter.BodyTooLargeException tooLarge = cause(e, BodyLimitFilter.BodyTooLargeException.class);
            if (tooLarge != null) {
                return BodyLimitFilter.tooLarge(tooLarge.limit(), uri);
            }
            Throwable json = e;
            while (json != null && !(json instanceof JsonProcessingException)) {
                json = json.getCause();
            }
            if (json != null) {
                return JsonErrors.problem((JsonProcessingException) json, uri);
            }
            return respond(e, uri);
        }

        static Response respond(Throwable e, UriInfo uri) {
            String id = UUID.randomUUID().toString();
            LOG.log(Level.SEVERE, "Unexpected failure " + id + " on " + (uri == null ? "?" : uri.getPath()), e);
            return Problems.of(500, "internal-error", "Internal error",
                    "The service failed unexpectedly; quote error id " + id + " when reporting it.", null, null, uri).build();
        }
    }

    /** Turns Jackson's exceptions into a 400 naming the JSON path, or into the same words for other reports. */
    public static final class JsonErrors {
        private JsonErrors() {
        }

        /**
         * What went wrong in a JSON document, in the words of the problem responses.
         *
         * @param field  the JSON path of the offending value ({@code key.userId}, {@code turns[2].turnId}), or
         *               {@code null} when the document as a whole is wrong
         * @param rule   {@code unknown-property}, {@code type}, {@code invalid-value} or {@code json-syntax}
         * @param detail a sentence for people, naming the field and the rule
         */
        public record Described(String field, String rule, String detail) {
        }

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
                    e instanceof com.fasterxml.jackson.core.exc.InputCoercionException direct ? direct
                    : e.getCause() instanceof com.fasterxml.jackson.core.exc.InputCoercionException wrapped ? wrapped
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
            for (com.fasterxml.jackson.core.JsonStreamContext c = parser.getParsingContext(); c != null && !c.inRoot();
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
            if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                    || type == Short.class || type == short.class || type == java.math.BigInteger.class) {
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
            return e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column "
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
}
