package org.agentmemory.rest;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import com.fasterxml.jackson.jakarta.rs.json.JsonEndpointConfig;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.Provider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads and writes JSON (and problem+json) with the API's strict mapper ({@link RestJson}), the same on
 * every server: the application's provider takes precedence over whatever JSON binding the server ships.
 *
 * <p>The reader and writer of each body class are made once and kept. Jackson's provider would look them up
 * per request under a key hashed from the resource method's annotations, and hashing the OpenAPI and Fault
 * Tolerance annotations of a method (nested {@code @APIResponse}s, long descriptions) reflectively on every
 * request showed in the profile of {@code addTurn}. Only Jackson's own annotations ({@code @JsonView},
 * {@code @JacksonFeatures}) would change a reader or writer, and the API uses none on its resources.
 */
@Provider
@Consumes({MediaType.APPLICATION_JSON, "application/*+json"})
@Produces({MediaType.APPLICATION_JSON, "application/*+json"})
public class JsonProvider extends JacksonJsonProvider {

    private static final Annotation[] NO_ANNOTATIONS = new Annotation[0];

    private final Map<Class<?>, JsonEndpointConfig> writers = new ConcurrentHashMap<>();
    private final Map<Class<?>, JsonEndpointConfig> readers = new ConcurrentHashMap<>();

    public JsonProvider() {
        super(RestJson.mapper());
    }

    @Override
    protected JsonEndpointConfig _endpointForWriting(
            Object value,
            Class<?> type,
            Type genericType,
            Annotation[] annotations,
            MediaType mediaType,
            MultivaluedMap<String, Object> httpHeaders) {
        return writers.computeIfAbsent(
                type, t -> _configForWriting(locateMapper(t, mediaType), NO_ANNOTATIONS, _defaultWriteView));
    }

    @Override
    protected JsonEndpointConfig _endpointForReading(
            Class<Object> type,
            Type genericType,
            Annotation[] annotations,
            MediaType mediaType,
            MultivaluedMap<String, String> httpHeaders) {
        return readers.computeIfAbsent(
                type, t -> _configForReading(locateMapper(t, mediaType), NO_ANNOTATIONS, _defaultReadView));
    }
}
