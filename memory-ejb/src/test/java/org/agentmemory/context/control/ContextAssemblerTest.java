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
        assertThat(assembler.fill("x".repeat(44), 10)).isEqualTo("x".repeat(40) + "...");
        assertThat(assembler.fill("x".repeat(40), 10)).isEqualTo("x".repeat(40));
    }

    @Test
    void truncatesEachSectionToItsAllocationWithRollover() {
        // B = 1800: episodic 540, skills 540 + rollover, brain 360 + rollover, conversation what is left.
        String episodic = "e".repeat(4000);
        MemoryContext context = assembler.assemble(episodic, "s".repeat(400), "c".repeat(8), "b".repeat(4000));

        // The longest head that fits with "..." appended: 540 tokens are 2,160 to 2,163 code points.
        assertThat(context.episodicWarnings()).isEqualTo("e".repeat(540 * 4) + "...");
        assertThat(context.relevantSkills()).isEqualTo("s".repeat(400));
        // skills used 100 of 540 → brain gets 360 + 440 = 800 tokens of its 1000.
        assertThat(context.semanticKnowledge()).isEqualTo("b".repeat(800 * 4) + "...");
        // conversation: 1800 − 540 − 100 − 800 = 360 tokens, "cccccccc" = 2.
        assertThat(context.conversationSummary()).isEqualTo("cccccccc");
        assertThat(context.tokensUsed()).isEqualTo(540 + 100 + 800 + 2);
        assertThat(context.tokensBudget()).isEqualTo(2000);
    }

    @Test
    void anEmptyEpisodicSectionRollsItsWholeAllocationForward() {
        MemoryContext context = assembler.assemble("", "s".repeat(8000), "", "");

        assertThat(context.relevantSkills()).hasSize(1080 * 4 + 3).endsWith("...");
        assertThat(context.tokensUsed()).isEqualTo(1080);
    }

    @Test
    void aSectionKeepsItsFirstWholeLinesThatFit() {
        MemoryContext context = new ContextAssembler(
                        MemoryConfig.builder().maxContextTokens(100).build())
                .assemble("w".repeat(40) + "\n" + "x".repeat(40) + "\n" + "y".repeat(40), "", "", "");
        // B = 90, episodic 27 tokens (the default weight 0.3): two lines of 10 tokens fit, the third does not.
        assertThat(context.episodicWarnings()).isEqualTo("w".repeat(40) + "\n" + "x".repeat(40));
    }

    @Test
    void aMultiLineMessageIsKeptOrDroppedWhole() {
        ContextAssembler small =
                new ContextAssembler(MemoryConfig.builder().maxContextTokens(40).build());
        // B = 36, all for the conversation.
        MemoryContext context = small.assemble(
                "",
                "",
                java.util.List.of(
                        "User: " + "old ".repeat(20), "Assistant: line one\nline two\n" + "z".repeat(160), "User: hi"),
                "");
        assertThat(context.conversationSummary()).isEqualTo("User: hi");

        MemoryContext fits = small.assemble(
                "",
                "",
                java.util.List.of("User: " + "old ".repeat(40), "Assistant: line one\nline two", "User: hi"),
                "");
        assertThat(fits.conversationSummary()).isEqualTo("Assistant: line one\nline two\nUser: hi");
    }

    @Test
    void sectionsAreCountedWithTheGivenTokenizer() {
        // A tokenizer that counts words: the allocation is in its tokens, not in code points / 4.
        ContextAssembler words = new ContextAssembler(
                MemoryConfig.builder().maxContextTokens(20).build(),
                text -> text.isBlank() ? 0 : text.strip().split("\\s+").length);
        MemoryContext context = words.assemble(
                "", "", java.util.List.of("User: " + "a ".repeat(30), "Assistant: b c", "User: d e"), "");
        // B = 18: the newest two messages (3 + 3 words, + 1 for the separator) fit, the first (31) does not.
        assertThat(context.conversationSummary()).isEqualTo("Assistant: b c\nUser: d e");
        assertThat(context.tokensUsed()).isEqualTo(6);
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
