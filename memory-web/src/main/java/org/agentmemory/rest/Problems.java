package org.agentmemory.rest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/**
 * Builds problem responses; every error of the API goes through here so the shape never varies.
 */
public final class Problems {

    private Problems() {}

    /**
     * @param status HTTP status
     * @param kind   kebab-case kind
     * @param title  summary of the kind
     * @param detail this occurrence
     * @param field  offending field or {@code null}
     * @param rule   broken rule or {@code null}
     * @param uri    the request's URI info (may be {@code null})
     * @return a response builder with the problem body and media type set
     */
    public static Response.ResponseBuilder of(
            int status, String kind, String title, String detail, String field, String rule, UriInfo uri) {
        String instance = uri == null ? null : uri.getRequestUri().getRawPath();
        return Response.status(status)
                .type(Problem.MEDIA_TYPE)
                .entity(new Problem(Problem.type(kind), title, status, detail, instance, field, rule));
    }

    /** A 400 for a bad field. */
    public static Response badRequest(String field, String rule, String detail, UriInfo uri) {
        return of(400, "invalid-input", "Invalid input", detail, field, rule, uri)
                .build();
    }
}
