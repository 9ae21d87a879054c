package org.agentmemory.brain.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The subject's evidence leaves brain statements (issue 34 item 4). */
class EvidenceErasureTest {

    private static final Instant T1 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant T2 = Instant.parse("2026-12-02T10:00:00Z");

    private final Predicate<String> subjects = EvidenceErasure.references(Set.of("17"), Set.of("e-a1", "e-a2"));

    @Test
    void referencesMatchTheSubjectsEpisodesAndTheTurnsOfItsConversationsOnly() {
        assertThat(subjects.test("episode:e-a1")).isTrue();
        assertThat(subjects.test("turn:17/t-3")).isTrue();
        assertThat(subjects.test("episode:e-b1")).isFalse();
        assertThat(subjects.test("turn:171/t-3"))
                .as("another conversation whose id starts alike")
                .isFalse();
        assertThat(subjects.test("turn:1/17")).isFalse();
        assertThat(subjects.test("turn:17")).as("malformed").isFalse();
        assertThat(subjects.test("episode:e-a1x")).isFalse();
    }

    @Test
    void aStatementOnlyTheSubjectSupportedGoesOneWithOtherEvidenceStays() {
        List<Statement> statements = List.of(
                Statement.asserted("Only A said this", Set.of("episode:e-a1", "turn:17/t-1"), T1),
                Statement.asserted("A and B said this", Set.of("episode:e-a2", "episode:e-b1"), T1),
                Statement.asserted("Only B said this", Set.of("episode:e-b2"), T1),
                Statement.asserted("Written directly", Set.of(), T1));

        EvidenceErasure.Result result = EvidenceErasure.erase(statements, subjects);

        assertThat(result.changed()).isTrue();
        assertThat(result.removed()).isEqualTo(1);
        assertThat(result.kept())
                .extracting(Statement::text)
                .containsExactly("A and B said this", "Only B said this", "Written directly");
        assertThat(result.kept().get(0).evidence()).containsExactly("episode:e-b1");
        assertThat(result.kept().get(0).assertedAt()).isEqualTo(T1);
        assertThat(result.kept().get(1)).isSameAs(statements.get(2));
    }

    @Test
    void theSubjectLeavesTheHistoryOfSupersededStatementsToo() {
        Statement old = new Statement("Deploy on Fridays", Set.of("episode:e-b1"), T1, T2, Set.of("episode:e-a1"));
        Statement newer = Statement.asserted("Never deploy on Fridays", Set.of("episode:e-a1"), T2);

        EvidenceErasure.Result result = EvidenceErasure.erase(List.of(old, newer), subjects);

        assertThat(result.removed()).isEqualTo(1);
        assertThat(result.kept()).hasSize(1);
        Statement kept = result.kept().get(0);
        assertThat(kept.text()).isEqualTo("Deploy on Fridays");
        assertThat(kept.supersededBy()).isEmpty();
        assertThat(kept.supersededAt()).as("its history stays").isEqualTo(T2);
    }

    @Test
    void pagesWithoutTheSubjectAreUnchanged() {
        List<Statement> statements = List.of(Statement.asserted("B only", Set.of("episode:e-b1"), T1));
        EvidenceErasure.Result result = EvidenceErasure.erase(statements, subjects);
        assertThat(result.changed()).isFalse();
        assertThat(result.removed()).isZero();
        assertThat(result.kept()).isEqualTo(statements);
    }
}
