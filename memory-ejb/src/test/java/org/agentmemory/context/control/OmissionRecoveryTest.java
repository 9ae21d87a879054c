package org.agentmemory.context.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OmissionRecoveryTest {

    private static final Map<String, String> CONTENT = Map.of(
            "om_00000000000000a1", "first line\nsecond line",
            "om_00000000000000b2", "{\"rows\":[1,2]}");
    private static final Map<String, List<String>> BY_TURN = Map.of(
            "t-1", List.of("om_00000000000000a1", "om_00000000000000b2"),
            "t-2", List.of("om_00000000000000ff"));

    private final List<String> lookups = new ArrayList<>();

    private String answer(String contentId, String turnId) {
        return OmissionRecovery.answer(
                contentId,
                turnId,
                id -> {
                    lookups.add("content:" + id);
                    return CONTENT.get(id);
                },
                turn -> {
                    lookups.add("turn:" + turn);
                    return BY_TURN.getOrDefault(turn, List.of());
                });
    }

    @Test
    void aContentIdGivesTheExactContent() {
        assertThat(answer("om_00000000000000a1", null)).isEqualTo("first line\nsecond line");
    }

    @Test
    void anUnknownContentIdGivesTheExpiredMessageWithTheId() {
        assertThat(answer("om_0123456789abcdef", "t-1"))
                .isEqualTo(
                        "Omitted content om_0123456789abcdef is unknown or may have expired \u2014 re-run the tool to regenerate it.");
        assertThat(lookups).containsExactly("content:om_0123456789abcdef");
    }

    @Test
    void aTurnIdGivesEveryBlockInInsertionOrderJoinedWithLf() {
        assertThat(answer(null, "t-1"))
                .isEqualTo("<omitted id=\"om_00000000000000a1\">\nfirst line\nsecond line\n</omitted>\n"
                        + "<omitted id=\"om_00000000000000b2\">\n{\"rows\":[1,2]}\n</omitted>");
    }

    @Test
    void aTurnWithoutRetrievableContentGivesTheTurnMessage() {
        assertThat(answer(null, "t-2"))
                .isEqualTo("No omitted content is known for turn t-2 \u2014 it may have expired; re-run the tool.");
        assertThat(answer("", "t-9"))
                .isEqualTo("No omitted content is known for turn t-9 \u2014 it may have expired; re-run the tool.");
    }

    @Test
    void neitherGivesTheProvideMessageWithoutTouchingTheStore() {
        assertThat(answer(null, null)).isEqualTo("Provide content_id (om_\u2026) or turn_id.");
        assertThat(answer("", "")).isEqualTo("Provide content_id (om_\u2026) or turn_id.");
        assertThat(lookups).isEmpty();
    }
}
