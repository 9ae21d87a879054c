package org.agentmemory.it;

import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.turn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.agentmemory.it.fuzz.Malformed;
import org.agentmemory.it.fuzz.Operation;
import org.agentmemory.it.support.Api;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes every operation of the served OpenAPI document (issue 31): at least {@value Malformed#MIN_PER_OPERATION}
 * malformed requests each ({@link Malformed}). No answer may be 5xx; every 4xx is {@code application/problem+json}
 * whose {@code field} or {@code detail} names the field or parameter that was broken (checked when the operation's
 * plausible request was accepted, so that the broken part is the only fault); no error body shows a Java class name
 * or a stack frame. An operation added later is fuzzed without anyone writing a test for it. Prints the requests sent
 * per operation.
 *
 * <p>On Open Liberty (the suite's liberty-rest execution) one kind of request is answered by the server, not by the
 * service, and is checked for that: a path holding an encoded control character ({@code %00}; the 28 path cases
 * {@code {param}=%00}). Under Servlet 6.0 Liberty's {@code WebContainer.handleRequest} canonicalizes every decoded
 * request path and rejects one holding a control character (0x00-0x1F, 0x7F) itself, before it has chosen a web
 * application, with a fixed {@code text/html} 400 (CWWWC0005I): no {@code <webContainer>} property guards that check
 * ({@code skipEncodedCharVerification} covers only {@code %2F}, {@code %5C}, {@code %2E}, {@code %23}), and no error
 * page, filter or servlet of memory-web is reached, so no problem+json can name the parameter. Such an answer must
 * be exactly that 400 with Liberty's message and no Java internals; every other request, including a path whose
 * escapes are not UTF-8 (rejected inside the web application, answered through {@code ProtocolErrorPage}), is held
 * to the same rules as on WildFly. The count of container answers is printed.
 */
class FuzzIT {

    /** A qualified Java class name, a stack frame, or an exception's simple name. */
    private static final Pattern JAVA_LEAK =
            Pattern.compile("\\b(?:java|javax|jakarta|org|com|io|sun)\\.[a-z0-9_]+\\.[\\w.$]*[A-Z][\\w$]*"
                    + "|\\.java:\\d+\\)|\\bat [\\w.$]+\\(|\\b[A-Z]\\w*(?:Exception|Error)\\b");

    /** An encoded control character, which Open Liberty's web container refuses in a path (see above). */
    private static final Pattern ENCODED_CONTROL = Pattern.compile("%(?:[01][0-9A-Fa-f]|7[Ff])");

    /** Liberty's message on the HTML 400 its web container writes for such a path. */
    private static final String LIBERTY_PATH_REJECTED = "CWWWC0005I";

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void noOperationAnswers5xxOrLeaksInternalsOnMalformedInput(Api api) throws Exception {
        JsonNode doc = Operation.document(api);
        List<Operation> operations = Operation.all(doc);
        assertThat(operations).hasSizeGreaterThan(50);
        Map<String, String> pathValues = pathValues(api);

        List<String> failures = new ArrayList<>();
        Map<String, String> report = new TreeMap<>();
        int total = 0;
        int namedChecks = 0;
        int containerAnswers = 0;
        long start = System.nanoTime();
        for (Operation op : operations) {
            Malformed malformed = new Malformed(doc, op, pathValues);
            boolean plausibleAccepted = !op.method().equals("DELETE")
                    && send(api, malformed.plausible()).statusCode() / 100 == 2;
            List<Malformed.Case> cases = malformed.cases();
            assertThat(cases).as(op.key()).hasSizeGreaterThanOrEqualTo(Malformed.MIN_PER_OPERATION);
            Map<Integer, Integer> statuses = new TreeMap<>();
            for (Malformed.Case c : cases) {
                HttpResponse<String> r = send(api, c);
                total++;
                statuses.merge(r.statusCode(), 1, Integer::sum);
                if (rejectedByLiberty(c)) {
                    containerAnswers++;
                    String problem = checkLibertyRejection(op, r);
                    if (problem != null) {
                        failures.add(op.key() + " [" + c.what() + "]: " + problem);
                    }
                    continue;
                }
                String problem = check(op, c, r, plausibleAccepted);
                if (problem != null) {
                    failures.add(op.key() + " [" + c.what() + "]: " + problem);
                }
                if (plausibleAccepted && c.target() != null && r.statusCode() / 100 == 4) {
                    namedChecks++;
                }
            }
            report.put(op.key(), cases.size() + " requests " + statuses);
        }
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        System.out.printf(
                Locale.ROOT,
                "[fuzz %s] %d operations, %d requests in %d s, %d answers checked for naming their field, %d answered"
                        + " by Open Liberty's web container%n",
                api.name(),
                operations.size(),
                total,
                seconds,
                namedChecks,
                containerAnswers);
        report.forEach((op, line) -> System.out.printf(Locale.ROOT, "[fuzz %s]   %s: %s%n", api.name(), op, line));
        assertThat(failures)
                .as("malformed requests answered wrongly on " + api.name())
                .isEmpty();
    }

    /** @return whether the case's path holds an encoded control character and the server is Open Liberty */
    private static boolean rejectedByLiberty(Malformed.Case c) {
        String path = c.pathAndQuery().split("\\?", 2)[0];
        return Boolean.getBoolean("it.liberty") && ENCODED_CONTROL.matcher(path).find();
    }

    /**
     * @return why Liberty's answer to such a path is wrong (not its 400 with its message, a HEAD's without a body, or
     *     leaking internals), or null
     */
    private static String checkLibertyRejection(Operation op, HttpResponse<String> r) {
        String body = r.body() == null ? "" : r.body();
        String shown = r.statusCode() + " " + (body.length() > 300 ? body.substring(0, 300) + "…" : body);
        boolean head = op.method().equals("HEAD");
        if (r.statusCode() != 400 || !(head ? body.isEmpty() : body.contains(LIBERTY_PATH_REJECTED))) {
            return "not Liberty's 400 " + LIBERTY_PATH_REJECTED + " for a control character in the path: " + shown;
        }
        if (JAVA_LEAK.matcher(body).find()) {
            return "Java internals in the body: " + shown;
        }
        return null;
    }

    /** @return why the answer is wrong, or null when it is right */
    private static String check(Operation op, Malformed.Case c, HttpResponse<String> r, boolean plausibleAccepted) {
        int status = r.statusCode();
        String body = r.body() == null ? "" : r.body();
        String shown = status + " " + (body.length() > 300 ? body.substring(0, 300) + "…" : body);
        if (status >= 500) {
            return "5xx: " + shown;
        }
        if (status / 100 == 2 || status / 100 == 3) {
            return null;
        }
        if (JAVA_LEAK.matcher(body).find()) {
            return "Java internals in the body: " + shown;
        }
        if (op.method().equals("HEAD")) {
            return null;
        }
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("application/problem+json")) {
            return "not application/problem+json (" + type + "): " + shown;
        }
        JsonNode problem;
        try {
            problem = Api.JSON.readTree(body);
        } catch (IOException e) {
            return "unparseable problem: " + shown;
        }
        if (problem.path("status").asInt() != status
                || problem.path("detail").asText("").isBlank()) {
            return "problem without status or detail: " + shown;
        }
        if (plausibleAccepted && c.target() != null && status != 404 && status != 413) {
            String field = problem.path("field").asText("");
            String detail = problem.path("detail").asText("");
            String target = c.target().length() > 40 ? c.target().substring(0, 40) : c.target();
            if (!field.contains(target) && !detail.contains(target)) {
                return "does not name " + c.target() + ": " + shown;
            }
        }
        return null;
    }

    private static HttpResponse<String> send(Api api, Malformed.Case c) throws Exception {
        return CLIENT.send(
                c.request(api.base(), api.token()), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Path values that exist: a conversation with a turn, so that operations on one get past "not found". */
    static Map<String, String> pathValues(Api api) {
        String user = unique("fuzz");
        Api.Response created = api.post("/turns", addTurn("fuzz-bot", user, "s", turn("t1", "hello", "hi")));
        assertThat(created.status()).isEqualTo(201);
        String id = created.json().path("conversationId").asText();
        return Map.of("id", id, "sequence", "1", "episodeId", "00000000-0000-4000-8000-000000000000");
    }
}
