package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Databases;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PII threads (issue 34 items 1–3) on real WildFly: the H2 server with the default in-process store, the PostgreSQL
 * server with the durable store under test keys (memory-it/suite/pom.xml). Stored rows, read directly on PostgreSQL,
 * hold neither a value nor its plain SHA-256; placeholders stay stable across 20 turns; restoration never crosses
 * threads; forgetting counts; another tenant or user cannot read a thread; bad input is a 400 naming the field. The
 * suite has one server per database, so two servers sharing the durable store are tested by
 * {@code DurableDetectionStoreTest} (two persistence units over one database).
 *
 * <p>On Open Liberty (the suite's liberty-rest execution) it runs against the PostgreSQL server only, which the suite
 * gives the same durable store and test keys.
 */
class PiiIT {

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    private static Map<String, Object> person(String value, int start) {
        return obj(
                "label",
                "PERSON",
                "value",
                value,
                "start",
                start,
                "end",
                start + value.codePointCount(0, value.length()),
                "confidence",
                0.9);
    }

    private static JsonNode ok(Api.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static String sha256(String value) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void storedRowsHoldNeitherTheValuesNorTheirPlainHashes() throws Exception {
        Api api = Api.postgres();
        String user = unique("pii-rows");
        String thread = unique("thread");
        String email = unique("zoe.martin") + "@example.com";
        String name = "Zoë Martin";
        String text = "Hi " + name + ", your IBAN FR76 3000 6000 0112 3456 7890 189 and mail " + email;
        ok(api.post(
                "/pii/anonymize",
                obj(
                        "threadId",
                        thread,
                        "userId",
                        user,
                        "messageId",
                        "m1",
                        "text",
                        text,
                        "detections",
                        List.of(person(name, 3)))));
        JsonNode auto = ok(
                api.post("/pii/anonymize", obj("threadId", thread, "userId", user, "messageId", "m2", "text", text)));
        assertThat(auto.get("text").asText())
                .contains("<<IBAN_1>>", "<<EMAIL_1>>")
                .doesNotContain(email);

        List<String> rows = new ArrayList<>();
        try (Connection c = Databases.suite();
                PreparedStatement st = c.prepareStatement("SELECT thread_key, message_key, role, key_id, payload"
                        + " FROM pii_message WHERE tenant_id = 'default' AND user_id = ?")) {
            st.setString(1, user);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    rows.add(String.join(
                            "|", rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
                }
            }
        }
        assertThat(rows).hasSize(2);
        List<String> forbidden = new ArrayList<>();
        for (String value : List.of(name, email, "FR76 3000 6000 0112 3456 7890 189", "FR7630006000011234567890189")) {
            forbidden.add(value.toLowerCase(Locale.ROOT));
            forbidden.add(sha256(value));
            forbidden.add(sha256(value.toLowerCase(Locale.ROOT)));
        }
        forbidden.add(thread);
        forbidden.add(sha256(thread));
        for (String row : rows) {
            assertThat(row.split("\\|")[3]).as("encrypted under a key").isNotEqualTo("plain");
            for (String f : forbidden) {
                assertThat(row.toLowerCase(Locale.ROOT)).doesNotContain(f);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void placeholdersStayStableAcrossTwentyTurns(Api api) {
        String user = unique("pii-stable");
        String thread = unique("thread");
        String name = "Ana Souza";
        for (int turn = 1; turn <= 20; turn++) {
            String prefix = "Turn " + turn + ": ";
            String text = prefix + name + " <ana.souza@example.com> called +44 20 7946 0958 about order ORD-2024-00"
                    + turn + " of 2024-01-15; cc bob@example.org";
            Map<String, Object> body = turn % 2 == 0 || turn == 3
                    ? obj("threadId", thread, "userId", user, "messageId", "m" + turn, "text", text)
                    : obj(
                            "threadId",
                            thread,
                            "userId",
                            user,
                            "messageId",
                            "m" + turn,
                            "text",
                            text,
                            "role",
                            "assistant",
                            "detections",
                            List.of(person(name, prefix.length())));
            String anonymized = ok(api.post("/pii/anonymize", body)).get("text").asText();
            // Turn 1 gives only the name, so the detector does not run; from turn 2 on, every value is replaced,
            // detected again or recognised as a value the thread already knows.
            String rest = turn == 1
                    ? " <ana.souza@example.com> called +44 20 7946 0958"
                    : " <<<EMAIL_1>>> called <<PHONE_1>>";
            assertThat(anonymized)
                    .as("turn %d", turn)
                    .isEqualTo(prefix + "<<PERSON_1>>" + rest + " about order ORD-2024-00" + turn
                            + " of 2024-01-15; cc " + (turn == 1 ? "bob@example.org" : "<<EMAIL_2>>"));
        }
        JsonNode merged = ok(api.get("/pii/detections" + query("threadId", thread, "userId", user)));
        assertThat(merged.get("detections")).hasSize(4);
        assertThat(merged.at("/detections/0/placeholder").asText()).isEqualTo("<<PERSON_1>>");
        JsonNode provenance = ok(api.get("/pii/provenance" + query("threadId", thread, "userId", user)));
        assertThat(provenance.at("/roles/anasouza").asText()).isEqualTo("assistant");
        JsonNode restored = ok(api.post(
                "/pii/deanonymize",
                obj("threadId", thread, "userId", user, "text", "Dear <<PERSON_1>>, we wrote to <<EMAIL_1>>.")));
        assertThat(restored.get("text").asText()).isEqualTo("Dear Ana Souza, we wrote to ana.souza@example.com.");
        assertThat(restored.get("restored").asInt()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void deanonymizeNeverRestoresAValueOfAnotherThread(Api api) {
        String user = unique("pii-cross");
        String mine = unique("mine");
        String theirs = unique("theirs");
        ok(api.post("/pii/anonymize", obj("threadId", mine, "userId", user, "text", "mail me@example.com")));
        ok(api.post(
                "/pii/anonymize",
                obj("threadId", theirs, "userId", user, "text", "mail a@example.com and b@example.com")));

        JsonNode restored = ok(api.post(
                "/pii/deanonymize",
                obj("threadId", mine, "userId", user, "text", "<<EMAIL_1>> <<EMAIL_2>> <<PHONE_1>>")));
        assertThat(restored.get("text").asText()).isEqualTo("me@example.com <<EMAIL_2>> <<PHONE_1>>");
        JsonNode unknown = ok(
                api.post("/pii/deanonymize", obj("threadId", unique("none"), "userId", user, "text", "<<EMAIL_1>>")));
        assertThat(unknown.get("text").asText()).isEqualTo("<<EMAIL_1>>");
        assertThat(unknown.get("restored").asInt()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void forgetReportsTheMessagesAndDetectionsDropped(Api api) {
        String user = unique("pii-forget");
        String thread = unique("thread");
        ok(api.post(
                "/pii/messages",
                obj(
                        "threadId",
                        thread,
                        "userId",
                        user,
                        "messageId",
                        "m1",
                        "detections",
                        List.of(person("Ann", 0), person("Bob", 10)))));
        ok(api.post(
                "/pii/messages",
                obj(
                        "threadId",
                        thread,
                        "userId",
                        user,
                        "messageId",
                        "m2",
                        "role",
                        "tool",
                        "detections",
                        List.of(person("Cid", 0)))));
        ok(api.post(
                "/pii/messages",
                obj("threadId", thread, "userId", user, "messageId", "m1", "detections", List.of(person("Ann", 0)))));
        JsonNode one = ok(api.get("/pii/detections" + query("threadId", thread, "userId", user, "messageId", "m1")));
        assertThat(one.get("detections")).hasSize(1);

        JsonNode forgotten = ok(api.delete("/pii/threads" + query("threadId", thread, "userId", user)));
        assertThat(forgotten.get("messages").asLong()).isEqualTo(2);
        assertThat(forgotten.get("detections").asLong()).isEqualTo(2);
        JsonNode again = ok(api.delete("/pii/threads" + query("threadId", thread, "userId", user)));
        assertThat(again.get("messages").asLong()).isZero();
        assertThat(again.get("detections").asLong()).isZero();
        assertThat(ok(api.get("/pii/detections" + query("threadId", thread, "userId", user)))
                        .get("detections"))
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anotherTenantOrUserCannotReadTheThread(Api api) {
        String user = unique("pii-scope");
        String thread = unique("thread");
        ok(api.post("/pii/anonymize", obj("threadId", thread, "userId", user, "text", "mail owner@example.com")));

        Api other = api.as(
                Tokens.of(api, unique("other-tenant"), List.of("memory-writer")).sign());
        assertThat(ok(other.get("/pii/detections" + query("threadId", thread, "userId", user)))
                        .get("detections"))
                .isEmpty();
        assertThat(ok(other.post("/pii/deanonymize", obj("threadId", thread, "userId", user, "text", "<<EMAIL_1>>")))
                        .get("text")
                        .asText())
                .isEqualTo("<<EMAIL_1>>");
        assertThat(ok(other.delete("/pii/threads" + query("threadId", thread, "userId", user)))
                        .get("messages")
                        .asLong())
                .isZero();
        Api narrowed = api.as(Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_user", unique("someone-else"))
                .sign());
        Api.Response refused = narrowed.get("/pii/detections" + query("threadId", thread, "userId", user));
        assertThat(refused.status()).as(refused.body()).isEqualTo(403);
        Api agentOnly = api.as(Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_agent", unique("some-agent"))
                .sign());
        Api.Response agentRefused = agentOnly.get("/pii/detections" + query("threadId", thread, "userId", user));
        assertThat(agentRefused.status())
                .as("a token narrowed to an agent only reaches no user's thread: " + agentRefused.body())
                .isEqualTo(403);
        assertThat(ok(narrowed.get("/pii/detections" + query("threadId", thread)))
                        .get("detections"))
                .as("the token's own user has no such thread")
                .isEmpty();
        assertThat(ok(api.get("/pii/detections" + query("threadId", thread, "userId", user)))
                        .get("detections"))
                .hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void badInputIsAProblemNamingTheField(Api api) {
        String user = unique("pii-bad");
        expectProblem(api.post("/pii/anonymize", obj("userId", user, "text", "x")), "threadId");
        expectProblem(api.post("/pii/anonymize", obj("threadId", "t", "text", "x")), "userId");
        expectProblem(
                api.post(
                        "/pii/anonymize",
                        obj(
                                "threadId",
                                "t",
                                "userId",
                                user,
                                "text",
                                "Hi Ann",
                                "detections",
                                List.of(person("Bob", 3)))),
                "detections[0].value");
        expectProblem(
                api.post(
                        "/pii/messages",
                        obj(
                                "threadId",
                                "t",
                                "userId",
                                user,
                                "messageId",
                                "m",
                                "detections",
                                List.of(obj(
                                        "label", "PERSON", "value", "Ann", "start", 5, "end", 2, "confidence", 1)))),
                "detections[0].end");
        expectProblem(
                api.post(
                        "/pii/messages",
                        obj(
                                "threadId",
                                "t",
                                "userId",
                                user,
                                "messageId",
                                "m",
                                "role",
                                "robot",
                                "detections",
                                List.of())),
                "role");
        expectProblem(api.get("/pii/provenance" + query("userId", user)), "threadId");
    }

    private static void expectProblem(Api.Response r, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.json().path("field").asText()).as(r.body()).isEqualTo(field);
    }

    @Test
    void theDurableStoreIsEncryptedReadyAndReencryptsNothingWhenCurrent() {
        Api api = Api.postgres();
        JsonNode reencrypted = ok(api.post("/pii/reencrypt", obj()));
        assertThat(reencrypted.get("rows").asLong()).isZero();
        Api.Response ready = api.send(HttpRequest.newBuilder(URI.create(api.management() + "/health/ready")));
        JsonNode check = null;
        for (JsonNode c : ready.json().get("checks")) {
            if (c.get("name").asText().equals("memory-pii")) {
                check = c;
            }
        }
        assertThat(check).as(ready.body()).isNotNull();
        assertThat(check.at("/data/store").asText()).isEqualTo("durable");
        assertThat(check.at("/data/encrypted").asBoolean()).isTrue();
        assertThat(check.at("/data/warning").isMissingNode()).isTrue();

        Api reader = api.as(Tokens.of(api, "default", List.of("memory-writer")).sign());
        assertThat(reader.post("/pii/reencrypt", obj()).status()).isEqualTo(403);
    }
}
