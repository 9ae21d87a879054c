package org.agentmemory.api.recall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class QueryTermsTest {

    @Test
    void aQueryOfAtMostTheLimitIsSearchedAsGiven() {
        String query = "Where did Caroline go hiking, last summer?";
        QueryTerms.Bounded bounded = QueryTerms.bound(query);
        assertThat(bounded.text()).isSameAs(query);
        assertThat(bounded.shortened()).isFalse();
        assertThat(bounded.wordsGiven()).isEqualTo(7);
        String atLimit =
                IntStream.range(0, QueryTerms.MAX_TERMS).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
        assertThat(QueryTerms.bound(atLimit).text()).isSameAs(atLimit);
    }

    @Test
    void aLongerQueryKeepsItsFirstDistinctWordsInOrder() {
        String query =
                IntStream.range(0, 5_000).mapToObj(i -> "Word" + (i % 300)).collect(Collectors.joining(", "));
        QueryTerms.Bounded bounded = QueryTerms.bound(query);
        assertThat(bounded.shortened()).isTrue();
        assertThat(bounded.wordsGiven()).isEqualTo(5_000);
        assertThat(bounded.termsKept()).isEqualTo(QueryTerms.MAX_TERMS);
        assertThat(bounded.text().split(" "))
                .hasSize(QueryTerms.MAX_TERMS)
                .startsWith("word0", "word1")
                .endsWith("word199");
        assertThat(bounded.header()).isEqualTo("kept=200; given=5000");
    }

    @Test
    void repeatedWordsCountAndCollapseWhenTheQueryIsTooLong() {
        String query = "spam ".repeat(1_500) + "eggs";
        QueryTerms.Bounded bounded = QueryTerms.bound(query);
        assertThat(bounded.text()).isEqualTo("spam eggs");
        assertThat(bounded.wordsGiven()).isEqualTo(1_501);
    }

    @Test
    void wordsAreRunsOfLettersMarksAndDigitsInAnyScript() {
        String query = "naïve café 東京 2026 e\u0301 " + "x ".repeat(QueryTerms.MAX_TERMS);
        QueryTerms.Bounded bounded = QueryTerms.bound(query);
        assertThat(bounded.text()).startsWith("naïve café 東京 2026 e\u0301 x");
        assertThat(QueryTerms.bound(null).text()).isNull();
        assertThat(QueryTerms.bound("!!! ???").text()).isEqualTo("!!! ???");
    }

    @Test
    void aWordLongerThanATermCountsOneTermPerStartedTermLength() {
        // The standard tokenizer cuts a 5 MB run of one letter into 20,561 terms of 255 characters.
        String fiveMegabytes = "f".repeat(5 * 1024 * 1024);
        QueryTerms.Bounded bounded = QueryTerms.bound(fiveMegabytes);
        assertThat(bounded.shortened()).isTrue();
        assertThat(bounded.wordsGiven()).isEqualTo(20_561);
        assertThat(bounded.text()).isEqualTo("f".repeat(QueryTerms.MAX_TERM_LENGTH));

        // U+1D400 is a letter outside the BMP: a cut never separates its surrogate pair.
        String wide = "a".repeat(254) + "\uD835\uDC00".repeat(10);
        assertThat(QueryTerms.bound(wide + " b".repeat(QueryTerms.MAX_TERMS)).text())
                .startsWith("a".repeat(254) + " b");
    }
}
