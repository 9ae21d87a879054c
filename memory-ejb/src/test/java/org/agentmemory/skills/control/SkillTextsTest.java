package org.agentmemory.skills.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.agentmemory.api.skills.SkillRegistryOperations;
import org.junit.jupiter.api.Test;

/** How skills are embedded and shown in the skills section (spec §9.2). */
class SkillTextsTest {

    @Test
    void theSectionShowsEachSkillWithItsToolsAndInstructionsSeparatedByABlankLine() {
        String text = SkillTexts.section(List.of(
                new SkillTexts.Shown(
                        "Restore a backup", "Restores PostgreSQL.", List.of("psql", "pg_restore"), "- a\n- b"),
                new SkillTexts.Shown("Answer politely", "Tone.", List.of(), "Be brief.")));
        assertThat(text)
                .isEqualTo(
                        "### Restore a backup\nRestores PostgreSQL.\nTools: psql, pg_restore\nInstructions:\n- a\n- b\n\n"
                                + "### Answer politely\nTone.\nInstructions:\nBe brief.");
        assertThat(SkillTexts.section(List.of())).isEmpty();
    }

    @Test
    void longInstructionsAreCutInTheSectionOnly() {
        String instructions = "\uD83D\uDE00".repeat(SkillRegistryOperations.SECTION_INSTRUCTIONS + 5);
        String text = SkillTexts.section(List.of(new SkillTexts.Shown("n", "d", List.of(), instructions)));
        String shown = text.substring(text.indexOf("Instructions:\n") + "Instructions:\n".length());
        assertThat(shown.codePointCount(0, shown.length())).isEqualTo(SkillRegistryOperations.SECTION_INSTRUCTIONS);
        assertThat(shown).endsWith("\uD83D\uDE00...");
        assertThat(SkillTexts.embedded("n", "d", List.of("t"), instructions)).endsWith(instructions);
    }

    @Test
    void theEmbeddedTextHoldsNameDescriptionToolsAndInstructions() {
        assertThat(SkillTexts.embedded("n", "d", List.of("a", "b"), "i")).isEqualTo("n\nd\nTools: a, b\ni");
        assertThat(SkillTexts.embedded("n", "d", List.of(), "i")).isEqualTo("n\nd\ni");
    }
}
