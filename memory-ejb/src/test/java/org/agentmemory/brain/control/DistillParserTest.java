package org.agentmemory.brain.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.agentmemory.platform.llm.UnreadableAnswerException;
import org.junit.jupiter.api.Test;

/** The distillation contract (spec §12.2 steps 4 and 5). */
class DistillParserTest {

    @Test
    void aValidAnswerIsReadThroughTheLadderAndTheConfidenceRule() {
        Distilled d = DistillParser.parse("Sure!\n```json\n{\"title\":\"Check quotas\",\"body\":\"- Check the quota"
                + " first\",\"category\":\"decision\",\"confidence\":0.8}\n```");
        assertThat(d).isEqualTo(new Distilled("Check quotas", "- Check the quota first", "decision", 0.8));

        Distilled low =
                DistillParser.parse("{\"title\":\"T\",\"body\":\"b\",\"category\":\"lesson\",\"confidence\":0.1}");
        assertThat(low.category()).isEqualTo("note");
        Distilled defaults = DistillParser.parse("{\"title\":\"T\",\"body\":\"b\"}");
        assertThat(defaults.category()).isEqualTo("lesson");
        assertThat(defaults.confidence()).isEqualTo(0.5);
    }

    @Test
    void garbageAndMissingFieldsAreUnreadable() {
        assertThatThrownBy(() -> DistillParser.parse("no json here")).isInstanceOf(UnreadableAnswerException.class);
        assertThatThrownBy(() -> DistillParser.parse("{\"title\":\"T\"}"))
                .isInstanceOf(UnreadableAnswerException.class)
                .hasMessageContaining("'body'");
        assertThatThrownBy(() -> DistillParser.parse("{\"title\":\"T\",\"body\":\"b\",\"confidence\":\"high\"}"))
                .isInstanceOf(UnreadableAnswerException.class)
                .hasMessageContaining("confidence");
    }

    @Test
    void thePromptListsEveryEpisodeAndTheContract() {
        String prompt = DistillPrompt.build(List.of(
                new DreamEpisode("a", Instant.EPOCH, "tool_execution", List.of(), "disk full", "retried", null, null),
                new DreamEpisode(
                        "b", Instant.EPOCH, "tool_execution", List.of(), "quota", "asked", "Ask first", null)));
        assertThat(prompt)
                .contains("- Situation: disk full\n  Action: retried\n  Lesson: N/A")
                .contains("  Lesson: Ask first")
                .contains("\"confidence\"")
                .endsWith("Respond ONLY with the JSON object.");
    }
}
