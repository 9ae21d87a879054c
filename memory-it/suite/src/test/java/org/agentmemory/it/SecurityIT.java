package org.agentmemory.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.agentmemory.it.fuzz.Malformed;
import org.agentmemory.it.fuzz.Operation;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every REST operation, enumerated from the live OpenAPI document (so a new endpoint without a rule fails here), is
 * refused without a valid token and without its role (issue 32 item 1): 401 without a token, with an expired one, one
 * signed by another key, a wrong issuer or audience, {@code alg: none} or no tenant claim, each a problem that says
 * only "invalid token"; 403 with the role just below the one the operation declares; and with exactly that role the
 * operation's plausible request is not refused, and answers 2xx wherever it does with every role (an operation that
 * declares {@code x-token-scope: user} gets, with exactly its role, a token narrowed to the user its request names).
 */
class SecurityIT {

    private static final List<String> LADDER =
            List.of("memory-reader", "memory-writer", "memory-admin", "memory-operator");

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void everyOperationNeedsAValidTokenAndItsRole(Api api) throws Exception {
        JsonNode doc = Operation.document(api);
        List<Operation> operations = Operation.all(doc);
        assertThat(operations).hasSizeGreaterThan(50);
        Map<String, String> pathValues = FuzzIT.pathValues(api);
        Tokens.Spec valid = Tokens.of(api, "default", LADDER);

        Map<String, String> broken = new LinkedHashMap<>();
        broken.put("expired", valid.withLifetime(Duration.ofHours(-1)).sign());
        broken.put("signed by another key", valid.withKey(Tokens.otherKey()).sign());
        broken.put("wrong issuer", valid.withIssuer("someone-else").sign());
        broken.put("wrong audience", valid.withAudience("another-service").sign());
        broken.put("alg none", valid.unsigned());
        broken.put("no tenant claim", valid.withTenant(null).sign());
        broken.put("not a JWT", "not-a-token");

        List<String> failures = new ArrayList<>();
        int requests = 0;
        for (Operation op : operations) {
            String role = declaredRole(doc, op);
            if (role == null) {
                failures.add(op.key() + ": declares no role (security requirement bearer with one role)");
                continue;
            }
            Malformed.Case plausible = new Malformed(doc, op, pathValues).plausible();

            requests++;
            expect(failures, op, "no token", send(api, op, plausible, null), 401, "A bearer token is required");
            for (Map.Entry<String, String> b : broken.entrySet()) {
                requests++;
                expect(failures, op, b.getKey(), send(api, op, plausible, b.getValue()), 401, "invalid token");
            }
            int rank = LADDER.indexOf(role);
            List<String> below = rank == 0 ? List.of() : List.of(LADDER.get(rank - 1));
            requests++;
            expect(
                    failures,
                    op,
                    "role below " + role,
                    send(api, op, plausible, valid.withGroups(below).sign()),
                    403,
                    role);
            if (op.method().equals("DELETE")) {
                continue; // the plausible request would delete the conversation the others use
            }
            requests += 2;
            int everyRole = send(api, op, plausible, valid.sign()).status();
            Tokens.Spec exactly = valid.withGroups(List.of(role));
            if ("user".equals(operation(doc, op).path("x-token-scope").asText())) {
                // The operation declares that with this role only a token narrowed to the named user may call it.
                exactly = exactly.withClaim("memory_user", plausibleUser(plausible));
            }
            Api.Response exact = send(api, op, plausible, exactly.sign());
            if (exact.status() == 401 || exact.status() == 403 || (everyRole / 100 == 2 && exact.status() / 100 != 2)) {
                failures.add(op.key() + " with exactly " + role + ": " + exact.status() + " (every role: " + everyRole
                        + ") " + exact.body());
            }
        }
        System.out.printf(
                Locale.ROOT,
                "[security %s] %d operations, %d requests, %d wrong answers%n",
                api.name(),
                operations.size(),
                requests,
                failures.size());
        assertThat(failures).as("operations answered wrongly on " + api.name()).isEmpty();
    }

    /** @return the one role of the operation's bearer security requirement, or null */
    private static JsonNode operation(JsonNode doc, Operation op) {
        return doc.at("/paths").path(op.path()).path(op.method().toLowerCase(Locale.ROOT));
    }

    /** @return the userId the plausible request's JSON body names */
    private static String plausibleUser(Malformed.Case plausible) {
        try {
            String user = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(plausible.body())
                    .path("userId")
                    .asText(null);
            assertThat(user)
                    .as("a user-scoped operation's plausible body names a userId")
                    .isNotNull();
            return user;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String declaredRole(JsonNode doc, Operation op) {
        JsonNode operation = operation(doc, op);
        JsonNode security = operation.path("security");
        if (!security.isArray() || security.size() != 1) {
            return null;
        }
        JsonNode scopes = security.get(0).path("bearer");
        return scopes.isArray()
                        && scopes.size() == 1
                        && LADDER.contains(scopes.get(0).asText())
                ? scopes.get(0).asText()
                : null;
    }

    private static Api.Response send(Api api, Operation op, Malformed.Case c, String token) {
        Malformed.Case typed = c.body() == null
                ? c
                : c.withHeaderIfAbsent("Content-Type", op.bodyType() == null ? "application/json" : op.bodyType());
        return api.sendAsIs(typed.request(api.base(), token));
    }

    private static void expect(
            List<String> failures, Operation op, String what, Api.Response r, int status, String detail) {
        boolean head = op.method().equals("HEAD");
        if (r.status() != status) {
            failures.add(op.key() + " [" + what + "]: " + r.status() + " instead of " + status + " " + r.body());
        } else if (!head
                && (!String.valueOf(r.contentType()).startsWith("application/problem+json")
                        || !r.json().path("detail").asText().contains(detail))) {
            failures.add(op.key() + " [" + what + "]: not a problem saying '" + detail + "': " + r.body());
        } else if (status == 401 && r.header("WWW-Authenticate") == null) {
            failures.add(op.key() + " [" + what + "]: 401 without WWW-Authenticate");
        }
    }
}
