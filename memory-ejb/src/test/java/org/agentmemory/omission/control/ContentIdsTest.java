package org.agentmemory.omission.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Content ids against vectors computed independently with Python's hashlib
 * ({@code "om_" + hashlib.blake2b(s.encode(), digest_size=8).hexdigest()}), which is what the reference uses.
 */
class ContentIdsTest {

    @Test
    void matchesBlake2bWithAnEightByteDigestComputedByHashlib() {
        assertThat(ContentIds.contentId("")).isEqualTo("om_e4a6a0577479b2b4");
        assertThat(ContentIds.contentId("hello")).isEqualTo("om_a7b6eda801e5347d");
        assertThat(ContentIds.contentId("x".repeat(50_000))).isEqualTo("om_850bb572d807d3c1");
    }

    @Test
    void isNotATruncatedBlake2b512() {
        // BLAKE2b-512("hello") starts e4cfa39a3d37be31…; the parameterized 8-byte digest differs entirely.
        assertThat(ContentIds.contentId("hello")).doesNotStartWith("om_e4cfa39a");
    }

    @Test
    void recognizesTheShape() {
        assertThat(ContentIds.isContentId("om_a7b6eda801e5347d")).isTrue();
        assertThat(ContentIds.isContentId("om_A7B6EDA801E5347D")).isFalse();
        assertThat(ContentIds.isContentId("om_a7b6eda801e5347")).isFalse();
        assertThat(ContentIds.isContentId(null)).isFalse();
    }
}
