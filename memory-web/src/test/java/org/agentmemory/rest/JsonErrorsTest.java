package org.agentmemory.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;

class JsonErrorsTest {

    /** A document shape, as the resources' bodies are. */
    public record Body(String userId, Inner turn) {
    }

    /** A nested shape. */
    public record Inner(String turnId, int count) {
    }

    private static ExceptionMappers.JsonErrors.Described describe(String json) {
        try {
            RestJson.mapper().readValue(json, Body.class);
            throw new AssertionError("should not parse: " + json);
        } catch (JsonProcessingException e) {
            return ExceptionMappers.JsonErrors.describe(e);
        }
    }

    @Test
    void namesTheFieldAndTheRuleWithoutJavaPackageNames() {
        ExceptionMappers.JsonErrors.Described unknown = describe("{\"userId\":\"u\",\"turn\":{\"turnId\":\"t\",\"count\":2,\"extra\":1}}");
        assertThat(unknown.rule()).isEqualTo("unknown-property");
        assertThat(unknown.field()).isEqualTo("turn.extra");
        assertThat(unknown.detail()).contains("'extra'").doesNotContain("org.agentmemory");

        ExceptionMappers.JsonErrors.Described wrongType = describe("{\"userId\":\"u\",\"turn\":{\"count\":\"many\"}}");
        assertThat(wrongType.rule()).isEqualTo("type");
        assertThat(wrongType.field()).isEqualTo("turn.count");
        assertThat(wrongType.detail()).doesNotContain("org.agentmemory", "java.lang");

        ExceptionMappers.JsonErrors.Described shape = describe("[1, 2]");
        assertThat(shape.rule()).isEqualTo("type");
        assertThat(shape.detail()).contains("Body").doesNotContain("org.agentmemory");

        ExceptionMappers.JsonErrors.Described truncated = describe("{\"userId\":\"u\",\"turn\":{");
        // Jackson reports an end of input inside "turn" as a mismatch there: the field names where it ended.
        assertThat(truncated.field()).isEqualTo("turn");
        assertThat(truncated.detail()).contains("end-of-input").doesNotContain("org.agentmemory");

        ExceptionMappers.JsonErrors.Described syntax = describe("{\"userId\": nope}");
        assertThat(syntax.rule()).isEqualTo("json-syntax");
        assertThat(syntax.field()).isNull();
        assertThat(syntax.detail()).startsWith("The body is not valid JSON").contains("line 1, column");
    }

    @Test
    void packagesAreStrippedButSentencesKept() {
        assertThat(ExceptionMappers.JsonErrors.withoutPackages(
                "Cannot deserialize value of type `org.agentmemory.conversation.JsonlLine` from Array value (e.g. 1.5)"))
                .isEqualTo("Cannot deserialize value of type `JsonlLine` from Array value (e.g. 1.5)");
        assertThat(ExceptionMappers.JsonErrors.withoutPackages("See `java.lang.Integer` and v1.2 of it."))
                .isEqualTo("See `Integer` and v1.2 of it.");
        assertThat(ExceptionMappers.JsonErrors.withoutPackages(null)).isNull();
    }
}
