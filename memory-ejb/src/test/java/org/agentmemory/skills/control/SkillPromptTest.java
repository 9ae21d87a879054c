package org.agentmemory.skills.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.agentmemory.platform.llm.UnreadableAnswerException;
import org.junit.jupiter.api.Test;

/** The model's prompt for an extracted skill holds lessons only; its answer replaces description and instructions. */
class SkillPromptTest {

    private static SkillExtraction.Extracted kubectl() {
        return SkillExtraction.extract(SkillExtractionTest.fixed(), 3).get(1);
    }

    @Test
    void thePromptHoldsCategoryToolsCountAndLessonsOnly() {
        String prompt = SkillPrompt.build(kubectl());
        assertThat(prompt)
                .startsWith("An agent succeeded 6 times at tool execution using the tools kubectl. What it learned:\n"
                        + "- Check the pod quota before kubectl apply\n")
                .contains("\"description\"", "\"instructions\"")
                .doesNotContain("episode:");
    }

    @Test
    void theAnswerReplacesDescriptionAndInstructionsAndKeepsTheKey() {
        SkillExtraction.Extracted written = SkillPrompt.read(
                kubectl(),
                "Here it is:\n```json\n{\"description\": \"Safe kubectl changes.\", \"instructions\": \"1. Dry-run\\n2."
                        + " Apply\"}\n```");
        assertThat(written.description()).isEqualTo("Safe kubectl changes.");
        assertThat(written.instructions()).isEqualTo("1. Dry-run\n2. Apply");
        assertThat(written.name()).isEqualTo(kubectl().name());
        assertThat(written.evidence()).isEqualTo(kubectl().evidence());
        assertThat(written.tools()).isEqualTo(List.of("kubectl"));
    }

    @Test
    void anAnswerWithoutTheFieldsIsUnreadable() {
        assertThatThrownBy(() -> SkillPrompt.read(kubectl(), "{\"title\": \"x\", \"body\": \"y\"}"))
                .isInstanceOf(UnreadableAnswerException.class)
                .hasMessageContaining("'description'");
        assertThatThrownBy(() -> SkillPrompt.read(kubectl(), "{\"description\": \"x\", \"instructions\": 3}"))
                .isInstanceOf(UnreadableAnswerException.class)
                .hasMessageContaining("'instructions'");
        assertThatThrownBy(() -> SkillPrompt.read(kubectl(), "no json")).isInstanceOf(UnreadableAnswerException.class);
    }
}
