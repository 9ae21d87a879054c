package org.agentmemory.context.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryConfigTest {

    @Test
    void defaultsFollowTheSpec() {
        MemoryConfig config = MemoryConfig.defaults();

        assertThat(config.enableEpisodic()).isTrue();
        assertThat(config.enableSkills()).isTrue();
        assertThat(config.enableConversation()).isTrue();
        assertThat(config.enableBrain()).isFalse();
        assertThat(config.maxContextTokens()).isEqualTo(2000);
        assertThat(config.episodicMaxWarnings()).isEqualTo(3);
        assertThat(config.skillMaxContext()).isEqualTo(3);
        assertThat(config.episodicWeight()).isEqualTo(0.3);
        assertThat(config.skillWeight()).isEqualTo(0.3);
        assertThat(config.conversationWeight()).isEqualTo(0.4);
        assertThat(config.brainWeight()).isEqualTo(0.20);
        assertThat(config.skillAutoExtract()).isFalse();
    }

    @Test
    void enablingTheBrainWithNoWeightSetRebalancesAllFour() {
        MemoryConfig config = MemoryConfig.builder().enableBrain(true).build();

        assertThat(config.episodicWeight()).isEqualTo(0.25);
        assertThat(config.skillWeight()).isEqualTo(0.25);
        assertThat(config.conversationWeight()).isEqualTo(0.30);
        assertThat(config.brainWeight()).isEqualTo(0.20);
    }

    @Test
    void enablingTheBrainWithAnyWeightSetKeepsTheOthersAtTheirDefaultsAndValidatesAllFour() {
        assertThatThrownBy(() -> MemoryConfig.builder()
                        .enableBrain(true)
                        .brainWeight(0.2)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "MemoryConfig weights must sum to 1.0 (±0.01) but episodic + skill + conversation + brain sum to "
                                + "1.200 (episodicWeight=0.3, skillWeight=0.3, conversationWeight=0.4, brainWeight=0.2); adjust them to add up to 1.0");

        MemoryConfig config = MemoryConfig.builder()
                .enableBrain(true)
                .episodicWeight(0.1)
                .skillWeight(0.2)
                .conversationWeight(0.3)
                .brainWeight(0.4)
                .build();
        assertThat(config.brainWeight()).isEqualTo(0.4);
    }

    @Test
    void withoutTheBrainOnlyThreeWeightsCountWithinPlusMinusOneHundredth() {
        assertThat(MemoryConfig.builder()
                        .episodicWeight(0.305)
                        .brainWeight(0.9)
                        .build()
                        .episodicWeight())
                .isEqualTo(0.305);
        assertThat(MemoryConfig.builder().episodicWeight(0.295).build().episodicWeight())
                .isEqualTo(0.295);
        // 0.29 + 0.3 + 0.4 is 0.99 less a binary rounding error, just outside the tolerance, as in the reference.
        assertThatThrownBy(() -> MemoryConfig.builder().episodicWeight(0.29).build())
                .hasMessageContaining("sum to 0.990");
        assertThatThrownBy(() -> MemoryConfig.builder().episodicWeight(0.32).build())
                .hasMessage(
                        "MemoryConfig weights must sum to 1.0 (±0.01) but episodic + skill + conversation (brain disabled) sum to "
                                + "1.020 (episodicWeight=0.32, skillWeight=0.3, conversationWeight=0.4); adjust them to add up to 1.0");
    }

    @Test
    void rejectsOutOfRangeValuesNamingTheField() {
        assertThatThrownBy(() -> MemoryConfig.builder().maxContextTokens(-1).build())
                .hasMessage("MemoryConfig.maxContextTokens must be >= 0 but was -1");
        assertThatThrownBy(() -> MemoryConfig.builder().skillWeight(1.5).build())
                .hasMessage("MemoryConfig.skillWeight must be between 0.0 and 1.0 but was 1.5");
        assertThatThrownBy(() -> MemoryConfig.builder().episodicMaxWarnings(-2).build())
                .hasMessage("MemoryConfig.episodicMaxWarnings must be >= 0 but was -2");
    }
}
