package org.agentmemory.skills.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.skills.control.CrossDomainRouting.Candidate;
import org.agentmemory.skills.control.CrossDomainRouting.Limits;
import org.agentmemory.skills.control.CrossDomainRouting.Route;
import org.junit.jupiter.api.Test;

/** The cross-domain router's choice (spec §9.5) with the decay applied (spec §13 #11). */
class CrossDomainRoutingTest {

    private static final Limits DEFAULTS = new Limits(0.5, 0.6, 2, 2);

    /** A unit vector at cosine {@code c} to (1, 0). */
    static float[] at(double c) {
        return new float[] {(float) c, (float) Math.sqrt(1 - c * c)};
    }

    private static final float[] QUERY = {1f, 0f};

    @Test
    void keepsAgentsAtTheThresholdOrderedByDecayedRelevanceAndCutsToTheMost() {
        List<Route> routes = CrossDomainRouting.route(
                QUERY,
                "asking",
                List.of(
                        new Candidate("db", at(0.9)),
                        new Candidate("k8s", at(0.5)),
                        new Candidate("billing", at(0.49)),
                        new Candidate("search", at(0.7))),
                DEFAULTS,
                3);

        assertThat(routes).extracting(Route::agentId).containsExactly("db", "search");
        assertThat(routes.get(0).similarity()).isCloseTo(0.9, within(1e-6));
        assertThat(routes.get(0).relevance()).isCloseTo(0.54, within(1e-6));
        assertThat(routes.get(1).relevance()).isCloseTo(0.42, within(1e-6));
        // ⌈0.54 × 3⌉ = 2 (capped at 2 per agent); ⌈0.42 × 3⌉ = 2
        assertThat(routes).extracting(Route::warnings).containsExactly(2, 2);

        List<Route> all = CrossDomainRouting.route(
                QUERY,
                "asking",
                List.of(new Candidate("k8s", at(0.5)), new Candidate("billing", at(0.49))),
                DEFAULTS,
                3);
        assertThat(all).extracting(Route::agentId).containsExactly("k8s"); // 0.5 is kept, 0.49 is not
    }

    @Test
    void theDecayShrinksAnotherAgentsShareOfTheWarnings() {
        // one warning asked of the section: another agent's is worth relevance < 1 of it, rounded up to one
        assertThat(CrossDomainRouting.route(QUERY, "a", List.of(new Candidate("b", at(0.9))), DEFAULTS, 1))
                .extracting(Route::warnings)
                .containsExactly(1);
        // ten asked: ⌈0.6 × 0.55 × 10⌉ = 4, capped at the per-agent maximum
        assertThat(CrossDomainRouting.route(
                        QUERY, "a", List.of(new Candidate("b", at(0.55))), new Limits(0.5, 0.6, 2, 10), 10))
                .extracting(Route::warnings)
                .containsExactly(4);
        // no decay at all: the same agent counts as much as the asking one
        assertThat(CrossDomainRouting.route(
                        QUERY, "a", List.of(new Candidate("b", at(0.55))), new Limits(0.5, 1.0, 2, 10), 10))
                .extracting(Route::warnings)
                .containsExactly(6);
        // a decay of 0 leaves nothing of other agents
        assertThat(CrossDomainRouting.route(
                        QUERY, "a", List.of(new Candidate("b", at(0.9))), new Limits(0.5, 0.0, 2, 2), 3))
                .isEmpty();
    }

    @Test
    void neverRoutesToTheAskingAgentNorToAnAgentWithoutAUsableVector() {
        List<Route> routes = CrossDomainRouting.route(
                QUERY,
                "a",
                List.of(
                        new Candidate("a", at(1.0)),
                        new Candidate("unembedded", null),
                        new Candidate("other-model", new float[] {1f, 0f, 0f}),
                        new Candidate("zero", new float[] {0f, 0f}),
                        new Candidate("b", at(0.8))),
                DEFAULTS,
                3);
        assertThat(routes).extracting(Route::agentId).containsExactly("b");
    }

    @Test
    void tiesAreOrderedByAgentIdAndZeroAgentsTurnsTheRouterOff() {
        List<Candidate> same = List.of(new Candidate("z", at(0.8)), new Candidate("m", at(0.8)));
        assertThat(CrossDomainRouting.route(QUERY, "a", same, DEFAULTS, 3))
                .extracting(Route::agentId)
                .containsExactly("m", "z");
        assertThat(CrossDomainRouting.route(QUERY, "a", same, new Limits(0.5, 0.6, 0, 2), 3))
                .isEmpty();
    }

    @Test
    void rendersEachAgentsWarningsUnderItsLabelInRouteOrder() {
        List<Map.Entry<String, String>> blocks = List.of(
                new AbstractMap.SimpleEntry<>("db", "MISTAKES TO AVOID:\n- a \u2014 b"),
                new AbstractMap.SimpleEntry<>("quiet", ""),
                new AbstractMap.SimpleEntry<>("k8s", "MISTAKES TO AVOID:\n- c \u2014 d"));
        assertThat(CrossDomainRouting.render(blocks))
                .isEqualTo("[cross-domain: db]\nMISTAKES TO AVOID:\n- a \u2014 b\n\n"
                        + "[cross-domain: k8s]\nMISTAKES TO AVOID:\n- c \u2014 d");
        assertThat(CrossDomainRouting.render(List.of())).isEmpty();
    }
}
