package org.agentmemory.working.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Filter-based retrieval's metadata match (seed 003 {@code retrieve(filters=…)}). */
class MetadataFilterTest {

    private final Map<String, Object> metadata =
            Map.of("colour", "blue", "count", 3, "ratio", new BigDecimal("0.50"), "done", true);

    @Test
    void everyCriterionMustHoldAnEqualValue() {
        assertThat(MetadataFilter.matches(metadata, Map.of("colour", "blue", "done", true)))
                .isTrue();
        assertThat(MetadataFilter.matches(metadata, Map.of("colour", "blue", "done", false)))
                .isFalse();
        assertThat(MetadataFilter.matches(metadata, Map.of("colour", "Blue"))).isFalse();
    }

    @Test
    void numbersCompareByValue() {
        assertThat(MetadataFilter.matches(metadata, Map.of("count", 3L))).isTrue();
        assertThat(MetadataFilter.matches(metadata, Map.of("count", new BigDecimal("3.0"))))
                .isTrue();
        assertThat(MetadataFilter.matches(metadata, Map.of("ratio", 0.5))).isTrue();
        assertThat(MetadataFilter.matches(metadata, Map.of("count", 4))).isFalse();
        assertThat(MetadataFilter.matches(metadata, Map.of("count", "3"))).isFalse();
    }

    @Test
    void aMissingKeyDoesNotMatch() {
        assertThat(MetadataFilter.matches(metadata, Map.of("shape", "round"))).isFalse();
        assertThat(MetadataFilter.matches(null, Map.of("colour", "blue"))).isFalse();
    }

    @Test
    void noCriteriaMatchEverything() {
        assertThat(MetadataFilter.matches(metadata, Map.of())).isTrue();
        assertThat(MetadataFilter.matches(null, null)).isTrue();
    }

    @Test
    void onlyScalarsAreFilterValues() {
        assertThat(MetadataFilter.isScalar("x")).isTrue();
        assertThat(MetadataFilter.isScalar(1)).isTrue();
        assertThat(MetadataFilter.isScalar(false)).isTrue();
        assertThat(MetadataFilter.isScalar(Map.of())).isFalse();
        assertThat(MetadataFilter.isScalar(java.util.List.of())).isFalse();
        assertThat(MetadataFilter.isScalar(null)).isFalse();
    }
}
