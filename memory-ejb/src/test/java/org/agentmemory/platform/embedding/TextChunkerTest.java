package org.agentmemory.platform.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.regex.Pattern;
import org.agentmemory.platform.embedding.TextChunker.Chunk;
import org.junit.jupiter.api.Test;

class TextChunkerTest {

    private static final Pattern WORDS = Pattern.compile("\\S+");

    /** One "word piece" per whitespace-separated word, plus one per 5 code points beyond the first 5. */
    private static int count(String text) {
        int n = 0;
        var m = WORDS.matcher(text);
        while (m.find()) {
            int len = m.group().codePointCount(0, m.group().length());
            n += 1 + Math.max(0, (len - 1) / 5);
        }
        return n;
    }

    @Test
    void aShortTextIsOneChunk() {
        assertThat(new TextChunker(10, 2, TextChunkerTest::count).chunk("One two three."))
                .containsExactly(new Chunk("One two three.", 4)); // "three." has 6 code points: 2 pieces
    }

    @Test
    void sentencesArePackedGreedilyWithOverlap() {
        String text = "A b c. D e f. G h i. J k l.";
        List<Chunk> chunks = new TextChunker(7, 3, TextChunkerTest::count).chunk(text);
        assertThat(chunks)
                .containsExactly(
                        new Chunk("A b c. D e f.", 6), new Chunk("D e f. G h i.", 6), new Chunk("G h i. J k l.", 6));
    }

    @Test
    void noOverlapWhenItWouldNotLeaveRoomForTheNextUnit() {
        List<Chunk> chunks = new TextChunker(6, 3, TextChunkerTest::count).chunk("A b c. D e f g h i.");
        assertThat(chunks).containsExactly(new Chunk("A b c.", 3), new Chunk("D e f g h i.", 6));
    }

    @Test
    void zeroOverlapStartsEachChunkFresh() {
        List<Chunk> noOverlap = new TextChunker(6, 0, TextChunkerTest::count).chunk("A b c. D e f. G h i.");
        assertThat(noOverlap).containsExactly(new Chunk("A b c. D e f.", 6), new Chunk("G h i.", 3));
    }

    @Test
    void theFirstChunkAloneEqualsTheFirstOfAllChunksAndCountsOnlyWhatItNeeds() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            text.append("word").append(i).append(i % 7 == 6 ? ". " : " ");
        }
        String longSentence = "w ".repeat(5000).strip();
        for (String sample : List.of(text.toString(), longSentence, "A b c. D e f g h i.", "One two three.")) {
            int[] counted = {0};
            TextChunker counting = new TextChunker(20, 3, t -> {
                counted[0] += t.length();
                return count(t);
            });
            assertThat(counting.first(sample))
                    .isEqualTo(new TextChunker(20, 3, TextChunkerTest::count)
                            .chunk(sample)
                            .get(0));
            if (sample.length() > 1000) {
                assertThat(counted[0]).as("characters counted").isLessThan(3 * sample.length());
            }
        }
    }

    @Test
    void aLongSentenceIsSplitIntoWords() {
        String text = "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10";
        List<Chunk> chunks = new TextChunker(4, 1, TextChunkerTest::count).chunk(text);
        assertThat(chunks).extracting(Chunk::text).containsExactly("w1 w2 w3 w4", "w4 w5 w6 w7", "w7 w8 w9 w10");
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.tokens()).isLessThanOrEqualTo(4));
    }

    @Test
    void aHugeWordIsCutIntoFittingPiecesAtCodePointBoundaries() {
        String word = "\uD83D\uDE00".repeat(40); // 40 code points → 8 pieces
        List<Chunk> chunks = new TextChunker(3, 0, TextChunkerTest::count).chunk(word);
        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.tokens()).isLessThanOrEqualTo(3);
            assertThat(chunk.tokens()).isEqualTo(count(chunk.text()));
            assertThat(Character.isLowSurrogate(chunk.text().charAt(0))).isFalse();
        });
        assertThat(String.join(
                        "", chunks.stream().map(c -> c.text().replace(" ", "")).toList()))
                .isEqualTo(word);
    }

    @Test
    void everyChunkFitsAndAllTextIsCoveredInOrder() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            text.append("Sentence number ")
                    .append(i)
                    .append(" talks about item")
                    .append(i % 7)
                    .append(". ");
        }
        List<Chunk> chunks = new TextChunker(20, 5, TextChunkerTest::count).chunk(text.toString());
        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.tokens()).isBetween(1, 20);
            assertThat(chunk.tokens()).isEqualTo(count(chunk.text()));
        });
        assertThat(chunks.get(0).text()).startsWith("Sentence number 0 ");
        assertThat(chunks.get(chunks.size() - 1).text()).endsWith("Sentence number 299 talks about item5.");
        String joined = String.join(" ", chunks.stream().map(Chunk::text).toList());
        for (int i = 0; i < 300; i++) {
            assertThat(joined).contains("Sentence number " + i + " talks");
        }
    }

    @Test
    void rejectsImpossibleSettings() {
        assertThatThrownBy(() -> new TextChunker(4, 4, TextChunkerTest::count))
                .hasMessage("chunking needs maxTokens ≥ 2 and 0 ≤ overlapTokens < maxTokens; got 4 and 4");
    }
}
