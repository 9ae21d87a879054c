package org.agentmemory.compaction.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelWindowsTest {

    private final ModelWindows windows = ModelWindows.builtIn();

    @Test
    void resolvesTheLongestMatchingPrefixOfTheLowerCasedName() {
        assertThat(windows.resolve("claude-sonnet-4-5")).isEqualTo(200000);
        assertThat(windows.resolve("gpt-4o-mini")).isEqualTo(128000);
        assertThat(windows.resolve("GPT-4.1-mini")).isEqualTo(1047576);
        assertThat(windows.resolve("gpt-5-nano")).isEqualTo(400000);
        assertThat(windows.resolve("o3-mini")).isEqualTo(200000);
        assertThat(windows.resolve("gemini-2.5-pro")).isEqualTo(1048576);
        assertThat(windows.resolve("llama-3.3-70b")).isEqualTo(131072);
    }

    @Test
    void lowerCasesWithoutTheDefaultLocale() {
        // Under a Turkish default locale "I".toLowerCase() is a dotless ı and would miss "mistral-large".
        assertThat(windows.resolve("MISTRAL-LARGE-2411")).isEqualTo(128000);
    }

    @Test
    void unknownEmptyAndNullNamesFallBackTo32000() {
        assertThat(windows.resolve("gpt-4")).isEqualTo(32000);
        assertThat(windows.resolve("")).isEqualTo(32000);
        assertThat(windows.resolve(null)).isEqualTo(32000);
        assertThat(windows.isFallback("my-model")).isTrue();
        assertThat(windows.isFallback("o4-mini")).isFalse();
    }

    @Test
    void configuredPrefixesMergeOverTheBuiltInTable() {
        ModelWindows configured = new ModelWindows(Map.of("Claude-3-Haiku", 100000, "gpt-5", 500000, "qwen", 65536));

        assertThat(configured.resolve("claude-3-haiku-20240307")).isEqualTo(100000);
        assertThat(configured.resolve("claude-opus-4")).isEqualTo(200000);
        assertThat(configured.resolve("gpt-5")).isEqualTo(500000);
        assertThat(configured.resolve("qwen2.5")).isEqualTo(65536);
    }

    @Test
    void rejectsNonPositiveWindowsAndBlankPrefixes() {
        assertThatThrownBy(() -> new ModelWindows(Map.of("x", 0)))
                .hasMessage("Model window of prefix 'x' must be a positive number of tokens but was 0");
        assertThatThrownBy(() -> new ModelWindows(Map.of(" ", 10)))
                .hasMessage("Model window prefix must not be blank but was ' '");
    }

    @Test
    void defaultBudgetUsesTheResolvedWindowAndTheMaxTurnsOverride() {
        assertThat(windows.defaultBudget("claude-x", null).window()).isEqualTo(200000);
        assertThat(windows.defaultBudget("claude-x", null).maxTurns()).isEqualTo(30);
        assertThat(windows.defaultBudget("unknown", 12).maxTurns()).isEqualTo(12);
        assertThat(windows.defaultBudget("unknown", 12).available()).isEqualTo(32000 - 8192 - 4096);
    }
}
