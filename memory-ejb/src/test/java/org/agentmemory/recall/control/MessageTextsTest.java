package org.agentmemory.recall.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MessageTextsTest {

    @Test
    void capsFitEveryDatabasesCountOfA512CharacterColumn() {
        assertThat(MessageTexts.cap(null)).isNull();
        assertThat(MessageTexts.cap("D1:3")).isEqualTo("D1:3");
        assertThat(MessageTexts.cap("a".repeat(600))).hasSize(500);
        String emoji = "\uD83D\uDE00".repeat(300);
        String capped = MessageTexts.cap(emoji);
        assertThat(capped.length()).isLessThanOrEqualTo(500);
        assertThat(capped.codePointCount(0, capped.length())).isEqualTo(250);
        String odd = "x" + "\uD83D\uDE00".repeat(300);
        String cappedOdd = MessageTexts.cap(odd);
        assertThat(cappedOdd).hasSize(499);
        assertThat(Character.isHighSurrogate(cappedOdd.charAt(cappedOdd.length() - 1))).isFalse();
    }
}
