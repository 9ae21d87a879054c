package org.agentmemory.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.agentmemory.api.config.MemorySettings;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Completes the OpenAPI document ({@code /openapi}) with what every operation shares, so that resources declare
 * only the responses of their own (registered as {@code mp.openapi.filter} in {@code microprofile-config.properties}):
 * <ul>
 * <li>every operation: 406 (no acceptable media type), 500 (unexpected failure, with an error id), 503 with
 * {@code Retry-After} (every resource has a Fault Tolerance timeout or bulkhead, and {@link BodyLimitFilter}
 * bounds large bodies read at once);</li>
 * <li>every operation with a request body: 413 ({@link BodyLimitFilter}), 415 (a Content-Type the operation does
 * not consume), and for JSON bodies 400 (the body is not the JSON expected, or breaks a rule) unless the
 * resource describes its 400 itself;</li>
 * <li>every error response without content gets the {@link Problem} body ({@code application/problem+json}),
 * which {@link ExceptionMappers} and {@link Problems} produce for every failure; HEAD responses have no body.</li>
 * </ul>
 * Responses are listed by status code. Enum values are written in lower case, the form the API writes
 * ({@link RestJson}) and reads (in any case): the scanner lists the Java constants.
 */
public class OpenApiFilter implements OASFilter {

    /** The Content-Type of every error body. */
    private static final String PROBLEM = Problem.MEDIA_TYPE;

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getPaths() != null && openAPI.getPaths().getPathItems() != null) {
            for (Map.Entry<String, PathItem> path :
                    openAPI.getPaths().getPathItems().entrySet()) {
                Map<PathItem.HttpMethod, Operation> operations = path.getValue().getOperations();
                if (operations == null) {
                    continue;
                }
                operations.forEach((method, operation) -> complete(path.getKey(), method, operation));
            }
        }
        if (openAPI.getComponents() != null && openAPI.getComponents().getSchemas() != null) {
            openAPI.getComponents().getSchemas().values().forEach(OpenApiFilter::lowerCaseEnums);
        }
    }

    private static void complete(String path, PathItem.HttpMethod method, Operation operation) {
        APIResponses responses = operation.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            operation.setResponses(responses);
        }
        if (operation.getRequestBody() != null && operation.getRequestBody().getContent() != null) {
            Map<String, ?> types = operation.getRequestBody().getContent().getMediaTypes();
            if (types != null && types.containsKey("application/json")) {
                addIfAbsent(
                        responses,
                        "400",
                        "The body is not the JSON this operation expects (syntax, an unknown"
                                + " property, a value of the wrong type) or a field breaks a rule: field names the JSON path,"
                                + " rule the rule. Nothing is written.");
            }
            addIfAbsent(
                    responses,
                    "413",
                    path.endsWith("/import")
                            ? "The body is larger than memory.import.max-body-bytes (default "
                                    + bytes(MemorySettings.Defaults.IMPORT_MAX_BODY_BYTES)
                                    + "). A declared Content-Length"
                                    + " over it is refused before reading; a streamed body that passes it ends the import,"
                                    + " and batches stored before stay stored."
                            : "The body is larger than memory.rest.max-body-bytes (default "
                                    + bytes(MemorySettings.Defaults.REST_MAX_BODY_BYTES) + "). Nothing is written.");
            addIfAbsent(
                    responses,
                    "415",
                    "The Content-Type is not one this operation accepts (see the request" + " body's media types).");
        }
        addIfAbsent(responses, "406", "The Accept header admits none of the media types this operation produces.");
        addIfAbsent(
                responses, "500", "An unexpected failure; detail quotes the error id the server logged it" + " under.");
        addIfAbsent(
                responses,
                "503",
                "A limit was reached: the call took longer than its time limit or too many"
                        + " calls of this operation run at once (Fault Tolerance timeout and bulkhead), or too many requests"
                        + " with large bodies (over " + bytes(LargeBodyAdmission.LARGE_BODY_BYTES)
                        + ") are being read. Retry"
                        + " after Retry-After seconds; a timed-out write may still complete, so retry it with the same ids.");
        APIResponse unavailable = responses.getAPIResponse("503");
        if (unavailable.getHeaders() == null || !unavailable.getHeaders().containsKey("Retry-After")) {
            unavailable.addHeader(
                    "Retry-After",
                    OASFactory.createHeader()
                            .description("Seconds to wait before retrying: memory.rest.retry-after-seconds (default "
                                    + MemorySettings.Defaults.RETRY_AFTER_SECONDS + "), or 5 when large bodies wait.")
                            .schema(OASFactory.createSchema().addType(Schema.SchemaType.INTEGER)));
        }
        Map<String, APIResponse> byCode = new TreeMap<>(responses.getAPIResponses());
        for (Map.Entry<String, APIResponse> response : byCode.entrySet()) {
            boolean error =
                    response.getKey().startsWith("4") || response.getKey().startsWith("5");
            if (error
                    && method != PathItem.HttpMethod.HEAD
                    && isEmpty(response.getValue().getContent())) {
                response.getValue().setContent(problemContent());
            }
        }
        responses.setAPIResponses(new LinkedHashMap<>(byCode));
    }

    private static void addIfAbsent(APIResponses responses, String code, String description) {
        if (!responses.hasAPIResponse(code)) {
            responses.addAPIResponse(code, OASFactory.createAPIResponse().description(description));
        }
    }

    /** @return e.g. {@code 8388608 bytes (8 MiB)} */
    private static String bytes(long n) {
        String[] units = {"GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << (10 * (units.length - i));
            if (n % unit == 0) {
                return n + " bytes (" + n / unit + " " + units[i] + ")";
            }
        }
        return n + " bytes";
    }

    private static boolean isEmpty(Content content) {
        return content == null
                || content.getMediaTypes() == null
                || content.getMediaTypes().isEmpty();
    }

    private static Content problemContent() {
        return OASFactory.createContent()
                .addMediaType(
                        PROBLEM,
                        OASFactory.createMediaType()
                                .schema(OASFactory.createSchema().ref("Problem")));
    }

    /** Lower-cases the enum values of a schema and of the schemas inside it. */
    private static void lowerCaseEnums(Schema schema) {
        if (schema == null) {
            return;
        }
        if (schema.getEnumeration() != null) {
            List<Object> values = new ArrayList<>(schema.getEnumeration().size());
            for (Object value : schema.getEnumeration()) {
                values.add(value instanceof String s ? s.toLowerCase(Locale.ROOT) : value);
            }
            schema.setEnumeration(values);
        }
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(OpenApiFilter::lowerCaseEnums);
        }
        lowerCaseEnums(schema.getItems());
    }
}
