package org.agentmemory.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.VersionConflictException;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * One exception mapper per failure kind, all answering RFC 9457 problem details.
 */
public final class ExceptionMappers {

    private static final Logger LOG = Logger.getLogger(ExceptionMappers.class.getName());

    private ExceptionMappers() {}

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
            return Problems.of(404, e.kind(), "Not found", e.getMessage(), null, null, uri)
                    .build();
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
                    .tag(Long.toString(e.actualVersion()))
                    .build();
        }
    }

    /** 409: an agent's dream cycle is running. */
    @Provider
    public static class CycleRunning implements ExceptionMapper<org.agentmemory.api.brain.CycleRunningException> {
        @Context
        UriInfo uri;

        @Override
        public Response toResponse(org.agentmemory.api.brain.CycleRunningException e) {
            return Problems.of(409, e.kind(), "Cycle already running", e.getMessage(), null, null, uri)
                    .build();
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
                    .sorted((a, b) -> a.getPropertyPath()
                            .toString()
                            .compareTo(b.getPropertyPath().toString()))
                    .findFirst()
                    .orElse(null);
            if (first == null) {
                return Problems.badRequest(null, "constraint", e.getMessage(), uri);
            }
            String field = fieldOf(first.getPropertyPath());
            String rule = first.getConstraintDescriptor()
                    .getAnnotation()
                    .annotationType()
                    .getSimpleName();
            StringBuilder detail = new StringBuilder(first.getMessage());
            if (e.getConstraintViolations().size() > 1) {
                detail.append(" (and ")
                        .append(e.getConstraintViolations().size() - 1)
                        .append(" more: ");
                e.getConstraintViolations().stream()
                        .filter(v -> v != first)
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
                if (node.getKind() == ElementKind.METHOD
                        || node.getKind() == ElementKind.CONSTRUCTOR
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

    /**
     * 503 + Retry-After: a fault-tolerance policy gave up (the call timed out, or the bulkhead is full). Business
     * failures (400, 404, 409) are not fault-tolerance exceptions and keep their own mappers.
     */
    @Provider
    public static class FaultTolerance implements ExceptionMapper<FaultToleranceException> {
        @Context
        UriInfo uri;

        @Inject
        RestSettings settings;

        @Override
        public Response toResponse(FaultToleranceException e) {
            return serviceUnavailable(e, settings.retryAfterSeconds(), uri);
        }
    }

    /**
     * 503 + Retry-After: the search engine does not answer (issue 36 item 3); recall fails fast while writes go on.
     */
    @Provider
    public static class SearchUnavailable implements ExceptionMapper<org.agentmemory.api.SearchUnavailableException> {
        @Context
        UriInfo uri;

        @Override
        public Response toResponse(org.agentmemory.api.SearchUnavailableException e) {
            return Problems.of(503, "search-unavailable", "Search engine unavailable", e.getMessage(), null, null, uri)
                    .header("Retry-After", Integer.toString(e.retryAfterSeconds()))
                    .build();
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
            java.util.regex.Matcher param = java.util.regex.Pattern.compile(
                            "(PathParam|QueryParam|HeaderParam)\\(\\\"([^\\\"]+)\\\"\\) value is '(.*)'$")
                    .matcher(detail);
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
                detail = "This endpoint does not accept "
                        + (sent == null ? "a body without a Content-Type" : "Content-Type '" + sent + "'")
                        + "; send application/json (application/x-ndjson for"
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

    /** Retry-After of a request that lost a lock wait, seconds. */
    static final int LOCK_RETRY_SECONDS = 1;

    /**
     * SQL states of a lock wait that timed out or a transaction the database chose to abort: H2's lock timeout
     * ({@code HYT00}), PostgreSQL's {@code lock_not_available} ({@code 55P03}), deadlock ({@code 40P01}) and
     * serialization failure ({@code 40001}). The transaction rolled back whole, so a retry is safe.
     */
    private static final java.util.Set<String> CONTENTION_STATES = java.util.Set.of("HYT00", "55P03", "40P01", "40001");

    /**
     * @param e a failure
     * @return the SQL state of a lock contention in its causes, or {@code null} when it is none
     */
    static String lockContention(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLException sql && CONTENTION_STATES.contains(sql.getSQLState())) {
                return "SQL state " + sql.getSQLState();
            }
            if (t instanceof jakarta.persistence.LockTimeoutException
                    || t instanceof jakarta.persistence.PessimisticLockException) {
                return t.getClass().getSimpleName();
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /**
     * 500 for anything unexpected: logged with an id the client can quote; no internals in the body. A lock wait
     * that timed out (a background embedder holding message rows while the database is loaded, say) is no fault:
     * it answers 503 {@code busy} with Retry-After instead.
     */
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
            String contention = lockContention(e);
            if (contention != null) {
                LOG.log(Level.INFO, "Lock contention on " + (uri == null ? "?" : uri.getPath()) + ": " + contention);
                return Problems.of(
                                503,
                                "busy",
                                "Rows busy",
                                "Another transaction held the rows this request needs for longer than the lock"
                                        + " timeout (" + contention + "); nothing was changed. Retry in "
                                        + LOCK_RETRY_SECONDS + " s.",
                                null,
                                null,
                                uri)
                        .header("Retry-After", Integer.toString(LOCK_RETRY_SECONDS))
                        .build();
            }
            return respond(e, uri);
        }

        static Response respond(Throwable e, UriInfo uri) {
            String id = UUID.randomUUID().toString();
            LOG.log(Level.SEVERE, "Unexpected failure " + id + " on " + (uri == null ? "?" : uri.getPath()), e);
            return Problems.of(
                            500,
                            "internal-error",
                            "Internal error",
                            "The service failed unexpectedly; quote error id " + id + " when reporting it.",
                            null,
                            null,
                            uri)
                    .build();
        }
    }

    /**
     * @param failure           what the policy threw
     * @param retryAfterSeconds the Retry-After value
     * @param uri               the request URI, or {@code null}
     * @return a 503 problem
     */
    static Response serviceUnavailable(Throwable failure, int retryAfterSeconds, UriInfo uri) {
        String detail;
        if (failure instanceof TimeoutException) {
            detail = "The request took longer than its time limit; it may still complete on the server. Retry in "
                    + retryAfterSeconds + " s with the same ids (turnId, for turns: retries are then idempotent).";
        } else if (failure instanceof BulkheadException) {
            detail = "Too many concurrent requests for this operation; try again in " + retryAfterSeconds + " s.";
        } else {
            detail = "The operation is temporarily unavailable ("
                    + (failure == null ? "unknown" : failure.getClass().getSimpleName()) + "); try again in "
                    + retryAfterSeconds + " s.";
        }
        return Problems.of(503, "service-unavailable", "Service unavailable", detail, null, null, uri)
                .header("Retry-After", Integer.toString(retryAfterSeconds))
                .build();
    }
}
