package org.agentmemory.rest;

import java.net.URI;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem details body ({@code application/problem+json}), with two extension members for input
 * errors: {@code field} (the offending JSON property path or parameter) and {@code rule} (the broken rule).
 *
 * @param type     {@code urn:agent-memory:problem:<kind>}
 * @param title    short summary of the kind
 * @param status   the HTTP status code
 * @param detail   what went wrong with this request and how to fix it
 * @param instance the request path
 * @param field    the offending field, or absent
 * @param rule     the broken rule, or absent
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(URI type, String title, int status, String detail, String instance, String field, String rule) {

    /** The media type of problem bodies. */
    public static final String MEDIA_TYPE = "application/problem+json";

    /**
     * @param kind kebab-case kind, e.g. {@code invalid-input}
     * @return its type URI
     */
    public static URI type(String kind) {
        return URI.create("urn:agent-memory:problem:" + kind);
    }
}
