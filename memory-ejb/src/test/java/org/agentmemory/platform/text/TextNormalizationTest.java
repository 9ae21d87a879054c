package org.agentmemory.platform.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.episodic.control.Episodes;
import org.junit.jupiter.api.Test;

class TextNormalizationTest {

    private static final String COMPOSED = "caf\u00e9 r\u00e9sum\u00e9";
    private static final String DECOMPOSED = "cafe\u0301 re\u0301sume\u0301";

    @Test
    void composedAndDecomposedFormsBecomeTheSameText() {
        assertThat(COMPOSED).isNotEqualTo(DECOMPOSED);
        assertThat(TextNormalization.nfc(DECOMPOSED)).isEqualTo(COMPOSED);
        assertThat(TextNormalization.nfc(COMPOSED)).isSameAs(COMPOSED);
        assertThat(TextNormalization.query("  " + DECOMPOSED + "\n")).isEqualTo(COMPOSED);
    }

    @Test
    void nullStaysNullAndAQueryOfNullIsEmpty() {
        assertThat(TextNormalization.nfc(null)).isNull();
        assertThat(TextNormalization.query(null)).isEmpty();
    }

    @Test
    void searchableTextIsNormalized() {
        var episode = Episodes.of("e", EpisodeOutcome.FAILURE, DECOMPOSED, "Ne\u0301 pas", LessonSource.MODEL);
        assertThat(TextNormalization.searchableText(episode)).isEqualTo(COMPOSED + " | act | N\u00e9 pas");
    }

    @Test
    void caseAndCompatibilityFormsAreLeftAlone() {
        // NFC, not NFKC: the ligature and full-width letters stay; case is untouched.
        assertThat(TextNormalization.nfc("\ufb01le \uff21BC Stra\u00dfe")).isEqualTo("\ufb01le \uff21BC Stra\u00dfe");
    }
}
