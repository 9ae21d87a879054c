package org.agentmemory.context.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContextAssemblerTest {

    private final ContextAssembler assembler = new ContextAssembler(MemoryConfig.defaults());

    @Test
    void workingBudgetKeepsTenPercentHeadroom() {
        assertThat(assembler.workingBudget()).isEqualTo(1800);
        assertThat(new ContextAssembler(
                                MemoryConfig.builder().maxContextTokens(1001).build())
                        .workingBudget())
                .isEqualTo(900);
    }

    @Test
    void allEmptyInputsGiveAnEmptyContextWithTheConfiguredBudget() {
        MemoryContext context = assembler.assemble("", null, "", null);

        assertThat(context).isEqualTo(new MemoryContext("", "", "", "", 0, 2000));
        assertThat(context.toPromptString()).isEmpty();
    }

    @Test
    void estimatesAQuarterOfTheCodePoints() {
        assertThat(ContextAssembler.estimate("\uD83D\uDE00".repeat(8))).isEqualTo(2);
        assertThat(ContextAssembler.estimate("abcdefg")).isEqualTo(1);
        assertThat(ContextAssembler.truncate("x".repeat(41), 10)).isEqualTo("x".repeat(37) + "...");
        assertThat(ContextAssembler.truncate("x".repeat(40), 10)).isEqualTo("x".repeat(40));
    }

    @Test
    void truncatesEachSectionToItsAllocationWithRollover() {
        // B = 1800: episodic 540, skills 540 + rollover, brain 360 + rollover, conversation what is left.
        String episodic = "e".repeat(4000);
        MemoryContext context = assembler.assemble(episodic, "s".repeat(400), "c".repeat(8), "b".repeat(4000));

        assertThat(context.episodicWarnings()).isEqualTo("e".repeat(540 * 4 - 3) + "...");
        assertThat(context.relevantSkills()).isEqualTo("s".repeat(400));
        // skills used 100 of 540 → brain gets 360 + 440 = 800 tokens of its 1000.
        assertThat(context.semanticKnowledge()).isEqualTo("b".repeat(800 * 4 - 3) + "...");
        // conversation: 1800 − 540 − 100 − 800 = 360 tokens, "cccccccc" = 2.
        assertThat(context.conversationSummary()).isEqualTo("cccccccc");
        assertThat(context.tokensUsed()).isEqualTo(540 + 100 + 800 + 2);
        assertThat(context.tokensBudget()).isEqualTo(2000);
    }

    @Test
    void anEmptyEpisodicSectionRollsItsWholeAllocationForward() {
        MemoryContext context = assembler.assemble("", "s".repeat(8000), "", "");

        assertThat(context.relevantSkills()).hasSize(1080 * 4).endsWith("...");
        assertThat(context.tokensUsed()).isEqualTo(1080);
    }

    @Test
    void conversationOverflowDropsTheOldestLinesFirst() {
        String conversation =
                "User: " + "a".repeat(1000) + "\nAssistant: " + "b".repeat(1000) + "\nUser: recent\nAssistant: newest";
        ContextAssembler small = new ContextAssembler(
                MemoryConfig.builder().maxContextTokens(400).build());

        MemoryContext context = small.assemble("", "", conversation, "");

        // B = 360 (1440 chars), all for the conversation: 2049 chars do not fit; without the first line 1042 do.
        assertThat(context.conversationSummary())
                .isEqualTo("Assistant: " + "b".repeat(1000) + "\nUser: recent\nAssistant: newest");
        assertThat(context.tokensUsed()).isEqualTo(ContextAssembler.estimate(context.conversationSummary()));
    }

    @Test
    void conversationLinesAreDroppedUntilNothingIsLeftIfNeeded() {
        ContextAssembler tiny =
                new ContextAssembler(MemoryConfig.builder().maxContextTokens(2).build());

        MemoryContext context = tiny.assemble("", "", "0123456789\n0123456789", "");

        assertThat(context.conversationSummary()).isEmpty();
        assertThat(context.tokensUsed()).isZero();
    }

    @Test
    void promptStringUsesTheOutputOrderNotTheFillOrder() {
        MemoryContext context = new MemoryContext("avoid X", "use Y", "User: hi", "fact Z", 10, 2000);

        assertThat(context.toPromptString())
                .isEqualTo("<past_failures_to_avoid>\navoid X\n</past_failures_to_avoid>\n\n"
                        + "<relevant_skills>\nuse Y\n</relevant_skills>\n\n"
                        + "<recent_conversation>\nUser: hi\n</recent_conversation>\n\n"
                        + "<brain_knowledge>\nfact Z\n</brain_knowledge>");
        assertThat(new MemoryContext("", "", "c", "", 0, 0).toPromptString())
                .isEqualTo("<recent_conversation>\nc\n</recent_conversation>");
    }
}
