package org.agentmemory.episodic.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.ReflectionResult;
import org.junit.jupiter.api.Test;

class ReflectionParserTest {

    private static final String JSON =
            "{\"reflection\": \"The id was wrong.\", \"lesson_learned\": \"Check ids first\", "
                    + "\"suggested_action\": \"List ids before fetching.\"}";
    private static final ReflectionResult EXPECTED =
            new ReflectionResult("The id was wrong.", "Check ids first", "List ids before fetching.");

    @Test
    void readsARawJsonObject() {
        assertThat(ReflectionParser.parse("  \n" + JSON + "\n")).isEqualTo(EXPECTED);
    }

    @Test
    void readsAJsonFencedBlock() {
        assertThat(ReflectionParser.parse("Here you go:\n```json\n" + JSON + "\n```\nHope it helps."))
                .isEqualTo(EXPECTED);
        assertThat(ReflectionParser.parse("```\n" + JSON + "\n```")).isEqualTo(EXPECTED);
    }

    @Test
    void readsTheFirstObjectEmbeddedInProse() {
        String prose = "Sure! The analysis {as requested} is: " + JSON + " and {\"other\": 1}.";
        assertThat(ReflectionParser.parse(prose)).isEqualTo(EXPECTED);
    }

    @Test
    void bracesInsideStringsDoNotConfuseTheSpanSearch() {
        String json = "{\"reflection\": \"Used {braces} and \\\"quotes}\\\"\", \"lesson_learned\": \"l\", "
                + "\"suggested_action\": \"s\"}";
        assertThat(ReflectionParser.parse("Answer: " + json + " done").reflection())
                .isEqualTo("Used {braces} and \"quotes}\"");
    }

    @Test
    void ignoresExtraFieldsAndStripsValues() {
        String json = "{\"reflection\": \" r \", \"lesson_learned\": \"l\", \"suggested_action\": \"s\", "
                + "\"confidence\": 0.9, \"tags\": [\"x\"]}";
        assertThat(ReflectionParser.parse(json)).isEqualTo(new ReflectionResult("r", "l", "s"));
    }

    @Test
    void garbageIsAParseFailureWithAnExcerpt() {
        assertThatThrownBy(() -> ReflectionParser.parse("I cannot help with that."))
                .isInstanceOf(ReflectionParseException.class)
                .hasMessage("The model's answer holds no JSON object (tried the whole text, a ```json fenced block and "
                        + "the first {...} span): I cannot help with that.");
        assertThatThrownBy(() -> ReflectionParser.parse("{not json at all"))
                .isInstanceOf(ReflectionParseException.class);
        assertThatThrownBy(() -> ReflectionParser.parse("[1, 2]")).isInstanceOf(ReflectionParseException.class);
    }

    @Test
    void emptyOrMissingContentIsAParseFailure() {
        assertThatThrownBy(() -> ReflectionParser.parse("  "))
                .hasMessage("The model's answer is empty; expected a JSON object");
        assertThatThrownBy(() -> ReflectionParser.parse(null))
                .hasMessage("The model's answer is missing; expected a JSON object");
    }

    @Test
    void aMissingFieldIsNamed() {
        assertThatThrownBy(() -> ReflectionParser.parse("{\"reflection\": \"r\", \"lesson_learned\": \"l\"}"))
                .isInstanceOf(ReflectionParseException.class)
                .hasMessageStartingWith(
                        "The model's reflection has no field 'suggested_action'; required string fields "
                                + "are reflection, lesson_learned and suggested_action: {");
    }

    @Test
    void aNonStringOrBlankFieldIsRejected() {
        assertThatThrownBy(() -> ReflectionParser.parse(
                        "{\"reflection\": \"r\", \"lesson_learned\": 42, \"suggested_action\": \"s\"}"))
                .hasMessageContaining("has a non-string 'lesson_learned' (Integer)");
        assertThatThrownBy(() -> ReflectionParser.parse(
                        "{\"reflection\": \"r\", \"lesson_learned\": \" \", \"suggested_action\": \"s\"}"))
                .hasMessageContaining("has a blank 'lesson_learned'");
    }

    @Test
    void longGarbageIsCutInTheMessage() {
        assertThatThrownBy(() -> ReflectionParser.parse("word ".repeat(200)))
                .hasMessageEndingWith("word".repeat(1) + " " + "…")
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(350));
    }

    @Test
    void promptFollowsTheContractOutline() {
        String prompt =
                ReflectionPrompt.build("find invoices", "Called search({})", EpisodeOutcome.FAILURE, "HTTP 500");
        assertThat(prompt).isEqualTo("""
                Analyze this agent interaction episode and extract a concise lesson.

                ## Episode
                - **Situation**: find invoices
                - **Action taken**: Called search({})
                - **Outcome**: failure
                - **Error**: HTTP 500

                Respond with a JSON object containing exactly these three fields:
                - "reflection": 1-2 sentences on what happened and why
                - "lesson_learned": a reusable lesson (max 100 characters)
                - "suggested_action": 1 sentence on what to do next time in a similar situation

                Respond ONLY with the JSON object, no markdown or extra text.""");
    }

    @Test
    void promptOmitsTheErrorLineWithoutAnError() {
        String prompt = ReflectionPrompt.build("s", "a", EpisodeOutcome.SUCCESS, "");
        assertThat(prompt).doesNotContain("**Error**").contains("- **Outcome**: success\n\nRespond with a JSON object");
    }
}
