package org.agentmemory.context.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.context.ContextAssemblyConfig;
import org.junit.jupiter.api.Test;

class AssemblyConfigsTest {

    @Test
    void absentConfigurationIsTheSpecDefault() throws Exception {
        assertThat(AssemblyConfigs.toMemoryConfig(null)).isEqualTo(MemoryConfig.defaults());
        assertThat(AssemblyConfigs.toMemoryConfig(ContextAssemblyConfig.defaults()))
                .isEqualTo(MemoryConfig.defaults());
    }

    @Test
    void brainWithoutWeightsIsRebalancedAndGivenValuesAreKept() throws Exception {
        MemoryConfig config =
                AssemblyConfigs.toMemoryConfig(new ContextAssemblyConfig(true, 4000, 5, 1, null, null, null, null));
        assertThat(config.enableBrain()).isTrue();
        assertThat(config.maxContextTokens()).isEqualTo(4000);
        assertThat(config.episodicMaxWarnings()).isEqualTo(5);
        assertThat(config.skillMaxContext()).isEqualTo(1);
        assertThat(new double[] {
                    config.episodicWeight(), config.skillWeight(), config.conversationWeight(), config.brainWeight()
                })
                .containsExactly(0.25, 0.25, 0.30, 0.20);
    }

    @Test
    void weightsThatDoNotSumToOneAreAnInputErrorNamingThem() {
        assertThatThrownBy(() -> AssemblyConfigs.toMemoryConfig(
                        new ContextAssemblyConfig(null, null, null, null, 0.5, 0.5, 0.5, null)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("episodicWeight=0.5")
                .satisfies(e -> {
                    assertThat(((InvalidInputException) e).field()).isEqualTo("config");
                    assertThat(((InvalidInputException) e).rule()).isEqualTo("weights-sum");
                });
    }

    @Test
    void outOfRangeValuesNameTheirField() {
        assertThatThrownBy(() -> AssemblyConfigs.toMemoryConfig(
                        new ContextAssemblyConfig(null, -1, null, null, null, null, null, null)))
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("config.maxContextTokens"));
        assertThatThrownBy(() -> AssemblyConfigs.toMemoryConfig(
                        new ContextAssemblyConfig(null, null, null, null, 1.5, null, null, null)))
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("config.episodicWeight"));
        assertThatThrownBy(() -> AssemblyConfigs.toMemoryConfig(
                        new ContextAssemblyConfig(null, null, null, -2, null, null, null, null)))
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo("config.skillMaxContext"));
    }
}
