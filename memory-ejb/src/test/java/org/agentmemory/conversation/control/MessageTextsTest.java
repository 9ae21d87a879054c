package org.agentmemory.conversation.control;

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
        assertThat(Character.isHighSurrogate(cappedOdd.charAt(cappedOdd.length() - 1)))
                .isFalse();
    }

    @Test
    void hugeMessagesAreIndexedByTheirHead() {
        String huge = "w".repeat(300_000);
        java.util.List<MessageTexts.Message> messages =
                MessageTexts.of(huge, "ok", java.util.Map.of("speaker", "Ann", "image_caption", "c".repeat(10_000)));
        assertThat(messages.get(0).content()).hasSize(MessageTexts.MAX_INDEXED_CODE_POINTS);
        assertThat(messages.get(0).searchText())
                .startsWith("Ann: www")
                .hasSize("Ann: ".length()
                        + MessageTexts.MAX_INDEXED_CODE_POINTS
                        + " [image: ]".length()
                        + MessageTexts.MAX_CAPTION_CODE_POINTS);
        assertThat(messages.get(1).content()).isEqualTo("ok");
    }
}
