package org.agentmemory.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
@Schema(
        description = "An RFC 9457 problem (application/problem+json), the body of every error. Absent members are"
                + " left out.")
public record Problem(
        @Schema(
                description = "urn:agent-memory:problem:<kind>. Kinds: invalid-input (400), <thing>-not-found such"
                        + " as conversation-not-found (404), version-conflict (409, 412), payload-too-large (413),"
                        + " internal-error (500), service-unavailable (503), and http-<status> for protocol errors (an"
                        + " unknown path or a malformed path id 404, 405, 406, 415).")
        URI type,

        @Schema(description = "Short summary of the kind, e.g. Invalid input.")
        String title,

        @Schema(description = "The HTTP status code.") int status,

        @Schema(description = "What went wrong with this request and how to fix it.")
        String detail,

        @Schema(description = "The request path; absent when unknown.")
        String instance,

        @Schema(
                description = "The offending JSON property path (e.g. turn.toolInvocations[0].toolName), parameter"
                        + " or header; present on input errors only.")
        String field,

        @Schema(
                description = "The broken rule, e.g. required, max-length, range, unknown-property, type,"
                        + " json-syntax; present on input errors only.")
        String rule) {

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
