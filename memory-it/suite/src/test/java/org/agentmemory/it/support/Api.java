package org.agentmemory.it.support;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small black-box HTTP client for one server's {@code /api/v1}. Bodies are JSON trees so tests assert on
 * the wire format, not on shared classes.
 */
public final class Api {

    /** The JSON mapper of the tests. */
    public static final ObjectMapper JSON = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private final String name;
    private final String base;
    private final String management;
    private final Path keys;
    private final String fixedToken;

    private Api(String name, String base, String management, Path keys) {
        this(name, base, management, keys, null);
    }

    private Api(String name, String base, String management, Path keys, String fixedToken) {
        this.name = name;
        this.base = base;
        this.management = management;
        this.keys = keys;
        this.fixedToken = fixedToken;
    }

    /**
     * @param token a bearer token (e.g. from {@link Tokens})
     * @return a client of the same server that sends this token instead of the development token
     */
    public Api as(String token) {
        return new Api(name, base, management, keys, token);
    }

    /**
     * @return the server backed by PostgreSQL: a WildFly server, or the Open Liberty server of the suite's Liberty
     *         run, whose development keys are at {@code it.pg.keys}
     */
    public static Api postgres() {
        String keys = System.getProperty("it.pg.keys");
        return new Api(
                "postgresql",
                System.getProperty("it.pg.base", "http://localhost:8180"),
                System.getProperty("it.pg.management", "http://localhost:10090"),
                keys != null ? Path.of(keys) : keysOf(System.getProperty("it.pg.home")));
    }

    /**
     * @param servers the servers a test runs on
     * @return those of them this run tests: all, or only those named by {@code it.servers} (comma-separated names,
     *         e.g. {@code postgresql} in the suite's run against Open Liberty, which has no H2 server)
     */
    public static List<Api> servers(Api... servers) {
        String only = System.getProperty("it.servers", "").strip();
        List<String> names = only.isEmpty() ? List.of() : List.of(only.split("\\s*,\\s*"));
        return Arrays.stream(servers)
                .filter(server -> names.isEmpty() || names.contains(server.name))
                .toList();
    }

    /** @return the server on the embedded H2 default */
    public static Api h2() {
        return new Api(
                "h2",
                System.getProperty("it.h2.base", "http://localhost:8280"),
                System.getProperty("it.h2.management", "http://localhost:10190"),
                keysOf(System.getProperty("it.h2.home")));
    }

    /**
     * @param name       a name for reports
     * @param base       the server's base URL, e.g. http://localhost:8580
     * @param management the management base URL
     * @param home       the server's WildFly home (its development keys are under its data directory)
     * @return a client of any server, e.g. one a test starts itself
     */
    public static Api at(String name, String base, String management, Path home) {
        return new Api(name, base, management, keysOf(home.toString()));
    }

    private static Path keysOf(String home) {
        return home == null ? null : Path.of(home, "standalone", "data", "agent-memory", "security");
    }

    /**
     * @return the directory of the server's development keys ({@code public.pem}, {@code private.pem},
     *         {@code dev-token.jwt}), which the server creates at start ({@code memory.security.development-keys})
     */
    public Path keys() {
        if (keys == null) {
            throw new IllegalStateException(name + ": the server's home is not known (it.pg.home / it.h2.home)");
        }
        return keys;
    }

    /** @return the server's development token: tenant default, every role; read from {@link #keys()} */
    public String token() {
        if (fixedToken != null) {
            return fixedToken;
        }
        Path file = keys().resolve("dev-token.jwt");
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("no development token at " + file + " (did the server start?)", e);
        }
    }

    /** @return "postgresql" or "h2" */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    /** @return the server's base URL, e.g. http://localhost:8180 */
    public String base() {
        return base;
    }

    /** @return the management base URL */
    public String management() {
        return management;
    }

    /** A response: status, headers and body text. */
    public record Response(int status, java.net.http.HttpHeaders headers, String body) {
        /** @return the body as a JSON tree */
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON (" + status + "): " + body, e);
            }
        }

        /** @return a header value or null */
        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /** @return the content type or null */
        public String contentType() {
            return header("Content-Type");
        }
    }

    /** GET {@code /api/v1 + path}. */
    public Response get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    /** POST a JSON value (serialized with the test mapper) to {@code /api/v1 + path}. */
    public Response post(String path, Object body) {
        return postRaw(path, write(body), "application/json");
    }

    /** POST raw text with a content type. */
    public Response postRaw(String path, String body, String contentType) {
        return send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    /** PUT a JSON value with extra headers. */
    public Response put(String path, Object body, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(write(body), StandardCharsets.UTF_8));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            builder.header(headers[i], headers[i + 1]);
        }
        return send(builder);
    }

    /** DELETE {@code /api/v1 + path}. */
    public Response delete(String path) {
        return send(HttpRequest.newBuilder(uri(path)).DELETE());
    }

    /**
     * Sends any request built against an absolute URL. A request to {@code /api/} without an
     * {@code Authorization} header gets the server's development token.
     */
    public Response send(HttpRequest.Builder builder) {
        HttpRequest request = builder.timeout(Duration.ofSeconds(60)).build();
        if (request.uri().getPath().startsWith(URI.create(base).getPath() + "/api/")
                && request.headers().firstValue("Authorization").isEmpty()) {
            request = HttpRequest.newBuilder(request, (header, value) -> true)
                    .header("Authorization", "Bearer " + token())
                    .build();
        }
        return sendAsIs(request);
    }

    /** Sends a request exactly as built: no token is added. */
    public Response sendAsIs(HttpRequest request) {
        try {
            HttpResponse<String> response =
                    CLIENT.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Response(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** @return the absolute URI of {@code /api/v1 + path} */
    public URI uri(String path) {
        return URI.create(base + "/api/v1" + path);
    }

    /** @return {@code ?k=v&...} with every value URL-encoded (null values left out) */
    public static String query(String... keysAndValues) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] == null) {
                continue;
            }
            out.append(out.length() == 0 ? '?' : '&')
                    .append(keysAndValues[i])
                    .append('=')
                    .append(URLEncoder.encode(keysAndValues[i + 1], StandardCharsets.UTF_8));
        }
        return out.toString();
    }

    /** @return a mutable JSON-object map from alternating keys and values */
    public static Map<String, Object> obj(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static String write(Object body) {
        if (body instanceof String s) {
            return s;
        }
        try {
            return JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
