package org.agentmemory.skills.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.skills.SkillInput;
import org.junit.jupiter.api.Test;

/** The input rules of a skill: every break names its field and rule. */
class SkillRulesTest {

    static SkillInput input(String name, String description, String instructions, List<String> tools, List<String> ex) {
        return new SkillInput(name, description, instructions, tools, ex);
    }

    @Test
    void acceptsAValidSkillAndKeepsEachToolOnce() throws InvalidInputException {
        SkillRules.Fields f = SkillRules.check(input(
                "Restore a backup",
                "Restores PostgreSQL",
                "1. stop\n2. restore",
                List.of("psql", "pg_restore", "psql"),
                null));
        assertThat(f.tools()).containsExactly("psql", "pg_restore");
        assertThat(f.examples()).isEmpty();
        assertThat(f.instructions()).isEqualTo("1. stop\n2. restore");
    }

    @Test
    void namesTheBrokenFieldAndRule() {
        expect(null, "body", "required");
        expect(input(null, "d", "i", null, null), "name", "required");
        expect(input("  ", "d", "i", null, null), "name", "not-blank");
        expect(input("a\nb", "d", "i", null, null), "name", "control-character");
        expect(input("n".repeat(201), "d", "i", null, null), "name", "max-length");
        expect(input("n", null, "i", null, null), "description", "required");
        expect(input("n", "d".repeat(2001), "i", null, null), "description", "max-length");
        expect(input("n", "d", "a\u0000b", null, null), "instructions", "nul-character");
        expect(input("n", "d", "i".repeat(16_001), null, null), "instructions", "max-length");
        expect(input("n", "d", "i", Collections.nCopies(51, "t"), null), "tools", "max-items");
        List<String> tools = new ArrayList<>(List.of("ok"));
        tools.add(null);
        expect(input("n", "d", "i", tools, null), "tools[1]", "required");
        expect(input("n", "d", "i", List.of("ok", "t\tab"), null), "tools[1]", "control-character");
        expect(input("n", "d", "i", null, Collections.nCopies(21, "e")), "examples", "max-items");
        expect(input("n", "d", "i", null, List.of("e".repeat(4001))), "examples[0]", "max-length");
        expect(input("n", "d", "i", null, List.of("\ud800")), "examples[0]", "unpaired-surrogate");
    }

    private static void expect(SkillInput input, String field, String rule) {
        assertThatThrownBy(() -> SkillRules.check(input)).isInstanceOfSatisfying(InvalidInputException.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.rule()).isEqualTo(rule);
        });
    }
}
