package org.agentmemory.episodic.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EpisodeInputsTest {

    private static final MemoryNamespace NS = new MemoryNamespace("acme", "coordinator", null, null, null, "crew-7");

    @Test
    void aSuccessfulToolCallUsesTheQueryAndTheArgumentsInPythonJsonLayout() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("query", "overdue invoices");
        args.put("limit", 10);
        args.put("exact", true);
        args.put("filter", null);
        EpisodeInput input = EpisodeInputs.toolEpisode(
                NS, "search", args, Map.of("success", true, "result", List.of(1, 2)), "Which invoices are overdue?");
        assertThat(input.situation()).isEqualTo("Which invoices are overdue?");
        assertThat(input.actionTaken())
                .isEqualTo(
                        "Called search({\"query\": \"overdue invoices\", \"limit\": \"10\", \"exact\": \"True\", \"filter\": \"None\"})");
        assertThat(input.outcome()).isEqualTo(EpisodeOutcome.SUCCESS);
        assertThat(input.outcomeDetails()).isEqualTo("[1,2]");
        assertThat(input.errorMessage()).isNull();
        assertThat(input.errorType()).isNull();
        assertThat(input.category()).isEqualTo(EpisodeCategory.TOOL_EXECUTION);
        assertThat(input.relatedTools()).containsExactly("search");
        assertThat(input.importance()).isNull();
        assertThat(input.generateReflection()).isTrue();
    }

    @Test
    void withoutAQueryTheSituationNamesTheTool() {
        EpisodeInput input = EpisodeInputs.toolEpisode(NS, "get_weather", null, null, "");
        assertThat(input.situation()).isEqualTo("Tool execution: get_weather");
        assertThat(input.actionTaken()).isEqualTo("Called get_weather({})");
        assertThat(input.outcome()).isEqualTo(EpisodeOutcome.SUCCESS);
        assertThat(input.outcomeDetails()).isNull();
    }

    @Test
    void argumentValuesAreCutToHundredCodePointsAndEscaped() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("text", "\uD83D\uDE00".repeat(120));
        args.put("q", "say \"hi\"\n");
        args.put("nested", Map.of("b", 1, "a", "x"));
        EpisodeInput input = EpisodeInputs.toolEpisode(NS, "t", args, Map.of(), null);
        assertThat(input.actionTaken())
                .isEqualTo("Called t({\"text\": \"" + "\uD83D\uDE00".repeat(100)
                        + "\", \"q\": \"say \\\"hi\\\"\\n\", \"nested\": \"{\\\"a\\\":\\\"x\\\",\\\"b\\\":1}\"})");
    }

    @ParameterizedTest
    @CsvSource(
            nullValues = "null",
            value = {
                "false, null, FAILURE", "false, timeout, FAILURE", "true, timeout, TIMEOUT", "null, timeout, TIMEOUT",
                "null, partial, PARTIAL", "null, TIMEOUT, SUCCESS", "null, ok, SUCCESS", "true, null, SUCCESS"
            })
    void outcomeMapping(Boolean success, String status, EpisodeOutcome expected) {
        Map<String, Object> result = new HashMap<>();
        if (success != null) {
            result.put("success", success);
        }
        if (status != null) {
            result.put("status", status);
        }
        assertThat(EpisodeInputs.toolEpisode(NS, "t", Map.of(), result, "q").outcome())
                .isEqualTo(expected);
    }

    @Test
    void errorMessageIsCutToFiveHundredAndDetailsToTwoHundred() {
        Map<String, Object> result = Map.of("success", false, "error", "E".repeat(600), "result", "R".repeat(300));
        EpisodeInput input = EpisodeInputs.toolEpisode(NS, "t", Map.of(), result, "q");
        assertThat(input.errorMessage()).hasSize(500);
        assertThat(input.outcomeDetails()).hasSize(200);
        assertThat(input.outcome()).isEqualTo(EpisodeOutcome.FAILURE);
    }

    @ParameterizedTest
    @CsvSource(
            nullValues = "null",
            value = {
                "Connection timeout after 30s, timeout",
                "RATE_LIMIT exceeded; connection closed, rate_limit",
                "rate limit exceeded, null",
                "Permission denied on connection, permission",
                "connection refused, connection",
                "VALIDATION failed, validation",
                "disk full, null"
            })
    void errorTypeIsTheFirstKnownTypeInFixedOrder(String message, String expected) {
        assertThat(EpisodeInputs.errorType(message)).isEqualTo(expected);
        EpisodeInput input =
                EpisodeInputs.toolEpisode(NS, "t", Map.of(), Map.of("success", false, "error", message), "q");
        assertThat(input.errorType()).isEqualTo(expected);
    }

    @Test
    void anEmptyOrFalseErrorIsNoError() {
        assertThat(EpisodeInputs.toolEpisode(NS, "t", Map.of(), Map.of("error", ""), "q")
                        .errorMessage())
                .isNull();
        assertThat(EpisodeInputs.toolEpisode(NS, "t", Map.of(), Map.of("error", false), "q")
                        .errorMessage())
                .isNull();
        assertThat(EpisodeInputs.toolEpisode(NS, "t", Map.of(), Map.of("error", Map.of("code", 7)), "q")
                        .errorMessage())
                .isEqualTo("{\"code\":7}");
    }

    @Test
    void aBlankToolNameIsRejected() {
        assertThatThrownBy(() -> EpisodeInputs.toolEpisode(NS, " ", null, null, null))
                .hasMessageContaining("toolName is blank");
    }

    @Test
    void crewRunsGiveOneCrewEpisodeAndOnePerAgent() {
        Map<String, Object> agents = new LinkedHashMap<>();
        agents.put("researcher", Map.of("success", true));
        agents.put("writer", Map.of("success", false, "error", "Connection reset"));
        List<EpisodeInput> inputs =
                EpisodeInputs.crewEpisodes(NS, Map.of("agent_results", agents), "weekly digest", true);

        assertThat(inputs).hasSize(3);
        EpisodeInput crew = inputs.get(0);
        assertThat(crew.namespace()).isEqualTo(NS);
        assertThat(crew.situation()).isEqualTo("Crew execution: weekly digest");
        assertThat(crew.actionTaken()).isEqualTo("Ran crew workflow with agents");
        assertThat(crew.category()).isEqualTo(EpisodeCategory.WORKFLOW_PATTERN);
        assertThat(crew.importance()).isEqualTo(6);
        assertThat(crew.outcome()).isEqualTo(EpisodeOutcome.SUCCESS);

        EpisodeInput writer = inputs.get(2);
        assertThat(writer.namespace()).isEqualTo(new MemoryNamespace("acme", "writer", null, null, null, "crew-7"));
        assertThat(writer.situation()).isEqualTo("Agent participation in crew: weekly digest");
        assertThat(writer.actionTaken()).isEqualTo("Executed assigned task in crew workflow");
        assertThat(writer.importance()).isEqualTo(5);
        assertThat(writer.outcome()).isEqualTo(EpisodeOutcome.FAILURE);
        assertThat(writer.errorType()).isEqualTo("connection");
        assertThat(inputs.get(1).namespace().agentId()).isEqualTo("researcher");
    }

    @Test
    void crewAgentResultsMayBeAListAndPerAgentCanBeOff() {
        Map<String, Object> result = Map.of(
                "status",
                "partial",
                "agent_results",
                List.of(Map.of("agent_id", "a1", "status", "timeout"), Map.of("output", "no id")));
        List<EpisodeInput> inputs = EpisodeInputs.crewEpisodes(NS, result, "d", true);
        assertThat(inputs)
                .extracting(EpisodeInput::outcome)
                .containsExactly(EpisodeOutcome.PARTIAL, EpisodeOutcome.TIMEOUT);
        assertThat(EpisodeInputs.crewEpisodes(NS, result, "d", false)).hasSize(1);
    }

    @Test
    void anInteractionIsRecordedAsAnAnsweredQuestion() {
        Optional<EpisodeInput> input = EpisodeInputs.interaction(NS, "How do I rotate the API key?", "R".repeat(250));
        assertThat(input).isPresent();
        assertThat(input.get().situation()).isEqualTo("How do I rotate the API key?");
        assertThat(input.get().actionTaken()).isEqualTo("Responded: " + "R".repeat(200));
        assertThat(input.get().outcome()).isEqualTo(EpisodeOutcome.SUCCESS);
        assertThat(input.get().category()).isEqualTo(EpisodeCategory.QUERY_RESOLUTION);
        assertThat(input.get().importance()).isEqualTo(3);
    }

    @Test
    void longQueriesAreCutToFiveHundredCodePoints() {
        String query = "\u00e9".repeat(600);
        assertThat(EpisodeInputs.interaction(NS, query, "ok").orElseThrow().situation())
                .isEqualTo("\u00e9".repeat(500));
    }

    @Test
    void shortAndTrivialQueriesAreSkipped() {
        assertThat(EpisodeInputs.interaction(NS, "  thanks!  ", "x")).isEmpty();
        assertThat(EpisodeInputs.interaction(NS, "   123456789   ", "x")).isEmpty();
        assertThat(EpisodeInputs.interaction(NS, "1234567890", "x")).isPresent();
        assertThat(EpisodeInputs.interaction(NS, null, "x")).isEmpty();
        assertThat(EpisodeInputs.TRIVIAL_QUERIES).contains("thank you", "goodbye", "help");
    }

    @Test
    void anExplicitLessonDefaultsToDecisionImportanceFiveAndClamps() {
        EpisodeInput lesson = EpisodeInputs.lesson(NS, "exports", "Users want CSV", null, null);
        assertThat(lesson.category()).isEqualTo(EpisodeCategory.DECISION);
        assertThat(lesson.importance()).isEqualTo(5);
        assertThat(lesson.outcome()).isEqualTo(EpisodeOutcome.SUCCESS);
        assertThat(lesson.generateReflection()).isFalse();
        assertThat(lesson.lessonLearned()).isEqualTo("Users want CSV");
        assertThat(EpisodeInputs.lesson(NS, "s", "l", EpisodeCategory.USER_PREFERENCE, 42)
                        .importance())
                .isEqualTo(10);
        assertThat(EpisodeInputs.lesson(NS, "s", "l", null, -3).importance()).isEqualTo(1);
        assertThatThrownBy(() -> EpisodeInputs.lesson(NS, "s", " ", null, null))
                .hasMessageContaining("lesson is blank");
    }

    @Test
    void pyStrSpellsScalarsLikePython() {
        assertThat(EpisodeInputs.pyStr(null)).isEqualTo("None");
        assertThat(EpisodeInputs.pyStr(false)).isEqualTo("False");
        assertThat(EpisodeInputs.pyStr(12L)).isEqualTo("12");
        assertThat(EpisodeInputs.pyStr(new BigDecimal("1.50"))).isEqualTo("1.50");
        assertThat(EpisodeInputs.pyStr(List.of("a", 1))).isEqualTo("[\"a\",1]");
    }
}
