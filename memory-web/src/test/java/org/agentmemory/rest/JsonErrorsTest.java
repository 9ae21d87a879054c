package org.agentmemory.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.api.Test;

class JsonErrorsTest {

    /** A document shape, as the resources' bodies are. */
    public record Body(String userId, Inner turn) {}

    /** A nested shape. */
    public record Inner(String turnId, int count) {}

    private static JsonErrors.Described describe(String json) {
        return describe(json, Body.class);
    }

    @Test
    void namesTheFieldAndTheRuleWithoutJavaPackageNames() {
        JsonErrors.Described unknown =
                describe("{\"userId\":\"u\",\"turn\":{\"turnId\":\"t\",\"count\":2,\"extra\":1}}");
        assertThat(unknown.rule()).isEqualTo("unknown-property");
        assertThat(unknown.field()).isEqualTo("turn.extra");
        assertThat(unknown.detail()).contains("'extra'").doesNotContain("org.agentmemory");

        JsonErrors.Described wrongType = describe("{\"userId\":\"u\",\"turn\":{\"count\":\"many\"}}");
        assertThat(wrongType.rule()).isEqualTo("type");
        assertThat(wrongType.field()).isEqualTo("turn.count");
        assertThat(wrongType.detail()).isEqualTo("turn.count must be an integer, not a string \"many\".");

        JsonErrors.Described shape = describe("[1, 2]");
        assertThat(shape.rule()).isEqualTo("type");
        assertThat(shape.detail()).isEqualTo("The body must be an object, not an array.");

        JsonErrors.Described truncated = describe("{\"userId\":\"u\",\"turn\":{");
        // Jackson reports an end of input inside "turn" as a mismatch there: the field names where it ended.
        assertThat(truncated.field()).isEqualTo("turn");
        assertThat(truncated.detail()).contains("truncated").doesNotContain("org.agentmemory", "Inner");

        JsonErrors.Described syntax = describe("{\"userId\": nope}");
        assertThat(syntax.rule()).isEqualTo("json-syntax");
        assertThat(syntax.field()).isNull();
        assertThat(syntax.detail()).startsWith("The body is not valid JSON").contains("line 1, column");
    }

    /** A shape whose constructor rejects a value, as the API records do. */
    public record Checked(String name) {
        public Checked {
            if ("bad".equals(name)) {
                throw new IllegalArgumentException("name must not be 'bad'");
            }
            if ("npe".equals(name)) {
                throw new NullPointerException();
            }
        }
    }

    private static JsonErrors.Described describe(String json, Class<?> type) {
        return describe(json, type, "The body");
    }

    @Test
    void noJavaTypeOrJacksonSettingIsEverNamed() {
        JsonErrors.Described array = describe("{\"userId\":[1],\"turn\":null}");
        assertThat(array.field()).isEqualTo("userId");
        assertThat(array.detail()).isEqualTo("userId must be a string, not an array.");

        JsonErrors.Described object = describe("{\"userId\":\"u\",\"turn\":\"text\"}");
        assertThat(object.detail()).startsWith("turn must be an object").doesNotContain("Inner", "Coercion");

        JsonErrors.Described trailing = describe("{\"userId\":\"u\"} {\"userId\":\"v\"}");
        assertThat(trailing.rule()).isEqualTo("json-syntax");
        assertThat(trailing.detail())
                .startsWith("More JSON follows the first value")
                .doesNotContain("FAIL_ON", "Body");

        JsonErrors.Described rejected = describe("{\"name\":\"bad\"}", Checked.class);
        assertThat(rejected.rule()).isEqualTo("invalid-value");
        assertThat(rejected.detail()).isEqualTo("The body is invalid: name must not be 'bad'.");

        JsonErrors.Described npe = describe("{\"name\":\"npe\"}", Checked.class);
        assertThat(npe.detail()).doesNotContain("NullPointerException").contains("cannot be accepted");
    }

    /** A shape with numbers, as turns have. */
    public record Numbers(Inner inner, long big) {}

    @Test
    void limitsOfTheParserAreReportedWithoutItsSettingsNames() {
        JsonErrors.Described tooDeep =
                describe("{\"data\":" + "[".repeat(1_100) + "]".repeat(1_100) + "}", java.util.Map.class);
        assertThat(tooDeep.rule()).isEqualTo("json-syntax");
        assertThat(tooDeep.detail()).contains("nesting depth").doesNotContain("StreamReadConstraints", "`");

        JsonErrors.Described outOfRange = describe("{\"inner\":{\"count\":99999999999}}", Numbers.class);
        assertThat(outOfRange.rule()).isEqualTo("range");
        assertThat(outOfRange.field()).isEqualTo("inner.count");
        assertThat(outOfRange.detail())
                .startsWith("inner.count is out of range")
                .doesNotContain("`");

        JsonErrors.Described line = describe("{\"userId\": nope}", Body.class, "The line");
        assertThat(line.detail()).startsWith("The line is not valid JSON");
    }

    /** A shape with a timestamp. */
    public record Stamped(java.time.Instant at) {}

    @Test
    void timestampsAreIsoStringsOnly() throws Exception {
        assertThat(RestJson.mapper()
                        .readValue("{\"at\":\"2026-11-30T12:00:00.123456Z\"}", Stamped.class)
                        .at())
                .isEqualTo(java.time.Instant.parse("2026-11-30T12:00:00.123456Z"));
        for (String number : new String[] {"1e300", "1700000000", "-9e18"}) {
            JsonErrors.Described d = describe("{\"at\":" + number + "}", Stamped.class);
            assertThat(d.field()).as(number).isEqualTo("at");
            assertThat(d.rule()).as(number).isEqualTo("type");
            assertThat(d.detail()).as(number).startsWith("at must be an ISO-8601 timestamp string");
        }
    }

    private static JsonErrors.Described describe(String json, Class<?> type, String subject) {
        try {
            RestJson.mapper().readValue(json, type);
            throw new AssertionError("should not parse: " + json);
        } catch (JsonProcessingException e) {
            return JsonErrors.describe(e, subject);
        }
    }

    @Test
    void packagesAreStrippedButSentencesKept() {
        assertThat(
                        JsonErrors.withoutPackages(
                                "Cannot deserialize value of type `org.agentmemory.conversation.JsonlLine` from Array value (e.g. 1.5)"))
                .isEqualTo("Cannot deserialize value of type `JsonlLine` from Array value (e.g. 1.5)");
        assertThat(JsonErrors.withoutPackages("See `java.lang.Integer` and v1.2 of it."))
                .isEqualTo("See `Integer` and v1.2 of it.");
        assertThat(JsonErrors.withoutPackages(null)).isNull();
    }
}
