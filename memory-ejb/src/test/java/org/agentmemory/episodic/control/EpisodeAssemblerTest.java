package org.agentmemory.episodic.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.ReflectionResult;
import org.junit.jupiter.api.Test;

class EpisodeAssemblerTest {

    private static final Instant NOW = Instant.parse("2026-05-10T08:30:00Z");
    private static final MemoryNamespace NS = new MemoryNamespace("acme", "planner", "u1", "s1", null, null);

    @Test
    void buildsTheEpisodeWithAutomaticImportanceDefaultTtlAndReflection() {
        EpisodeInput input = EpisodeInput.builder(NS, "fetch report", "Called fetch({})", EpisodeOutcome.FAILURE)
                .errorType("timeout")
                .errorMessage("timed out")
                .relatedTools(List.of("fetch"))
                .metadata(Map.of("k", "v"))
                .build();
        ReflectionOutcome reflection = new HeuristicReflector().reflect(input);

        Episode episode = EpisodeAssembler.assemble(input, reflection, null, "id-1", NOW, 90);

        assertThat(episode.episodeId()).isEqualTo("id-1");
        assertThat(episode.namespace()).isEqualTo(NS);
        assertThat(episode.createdAt()).isEqualTo(NOW);
        assertThat(episode.updatedAt()).isEqualTo(NOW);
        assertThat(episode.expiresAt()).isEqualTo(Instant.parse("2026-08-08T08:30:00Z"));
        assertThat(episode.importance()).isEqualTo(9);
        assertThat(episode.isFailure()).isTrue();
        assertThat(episode.reflection()).isEqualTo("Action failed with error: timed out");
        assertThat(episode.lessonLearned()).isEqualTo("Consider reducing scope or adding timeout");
        assertThat(episode.suggestedAction()).isEqualTo("Use shorter timeouts and break large operations into chunks.");
        assertThat(episode.lessonSource()).isEqualTo(LessonSource.HEURISTIC);
        assertThat(episode.category()).isEqualTo(EpisodeCategory.TOOL_EXECUTION);
        assertThat(episode.relatedTools()).containsExactly("fetch");
        assertThat(episode.metadata()).containsEntry("k", "v");
        assertThat(episode.isLessonBearing()).isTrue();
    }

    @Test
    void anExplicitImportanceAndTtlWinAndZeroTtlNeverExpires() {
        EpisodeInput input = EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.SUCCESS)
                .importance(8)
                .ttlDays(0)
                .build();
        Episode episode = EpisodeAssembler.assemble(input, null, null, "id", NOW, 90);
        assertThat(episode.importance()).isEqualTo(8);
        assertThat(episode.expiresAt()).isNull();
        assertThat(EpisodeAssembler.assemble(input.toBuilder().ttlDays(null).build(), null, null, "id", NOW, 0)
                        .expiresAt())
                .isNull();
        assertThat(EpisodeAssembler.assemble(input.toBuilder().ttlDays(1).build(), null, null, "id", NOW, 90)
                        .expiresAt())
                .isEqualTo(NOW.plusSeconds(86_400));
    }

    @Test
    void partialIsNotAFailure() {
        Episode episode = EpisodeAssembler.assemble(
                EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.PARTIAL).build(), null, null, "id", NOW, 90);
        assertThat(episode.isFailure()).isFalse();
        assertThat(episode.importance()).isEqualTo(5);
        assertThat(episode.lessonLearned()).isNull();
        assertThat(episode.lessonSource()).isNull();
    }

    @Test
    void aReflectionIsIgnoredWhenTheInputSaysNoReflection() {
        EpisodeInput input = EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.FAILURE)
                .generateReflection(false)
                .build();
        ReflectionOutcome reflection = new ReflectionOutcome(new ReflectionResult("r", "l", "s"), LessonSource.MODEL);
        assertThat(EpisodeAssembler.needsReflection(input)).isFalse();
        assertThat(EpisodeAssembler.assemble(input, reflection, null, "id", NOW, 90)
                        .lessonLearned())
                .isNull();
    }

    @Test
    void anExplicitLessonIsStoredAsExplicitAndSkipsReflection() {
        EpisodeInput input = EpisodeInputs.lesson(NS, "exporting reports", "Users want CSV", null, null);
        assertThat(EpisodeAssembler.needsReflection(input)).isFalse();
        assertThat(EpisodeAssembler.needsReflection(
                        input.toBuilder().generateReflection(true).build()))
                .isFalse();
        Episode episode = EpisodeAssembler.assemble(input, null, null, "id", NOW, 90);
        assertThat(episode.lessonLearned()).isEqualTo("Users want CSV");
        assertThat(episode.lessonSource()).isEqualTo(LessonSource.EXPLICIT);
        assertThat(episode.reflection()).isNull();
        assertThat(episode.searchableText()).isEqualTo("exporting reports | Recorded lesson | Users want CSV");
        assertThat(episode.isLessonBearing()).isTrue();
    }

    @Test
    void aHeuristicSuccessLessonIsStoredButIsNotLessonBearing() {
        EpisodeInput input =
                EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.SUCCESS).build();
        Episode episode =
                EpisodeAssembler.assemble(input, new HeuristicReflector().reflect(input), null, "id", NOW, 90);
        assertThat(episode.lessonLearned()).isEqualTo("Approach worked; remember this pattern");
        assertThat(episode.isLessonBearing()).isFalse();
        assertThat(episode.isDreamEligible(5)).isFalse();
    }

    @Test
    void theScorerOverridesEvenAnExplicitImportance() {
        EpisodeInput input = EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.SUCCESS)
                .importance(9)
                .build();
        assertThat(EpisodeAssembler.assemble(input, null, e -> 0.25, "id", NOW, 90)
                        .importance())
                .isEqualTo(2);
        assertThat(EpisodeAssembler.assemble(input, null, e -> 0.35, "id", NOW, 90)
                        .importance())
                .isEqualTo(4);
    }

    @Test
    void theScorerSeesTheReflectedEpisode() {
        EpisodeInput input =
                EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.SUCCESS).build();
        ReflectionOutcome reflection =
                new ReflectionOutcome(new ReflectionResult("r", "lesson", "s"), LessonSource.MODEL);
        Episode episode = EpisodeAssembler.assemble(input, reflection, new ValueScorer(), "id", NOW, 90);
        // success 0.3 + feedback 0.15 = 0.45 → 4 (half-even)
        assertThat(episode.importance()).isEqualTo(4);
    }

    @Test
    void aFailingScorerIsIgnored() {
        EpisodeInput input =
                EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.FAILURE).build();
        assertThat(EpisodeAssembler.assemble(
                                input,
                                null,
                                e -> {
                                    throw new IllegalStateException("boom");
                                },
                                "id",
                                NOW,
                                90)
                        .importance())
                .isEqualTo(7);
        assertThat(EpisodeAssembler.assemble(input, null, e -> Double.NaN, "id", NOW, 90)
                        .importance())
                .isEqualTo(7);
    }

    @Test
    void rejectsANegativeDefaultTtl() {
        EpisodeInput input =
                EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.FAILURE).build();
        assertThatThrownBy(() -> EpisodeAssembler.assemble(input, null, null, "id", NOW, -1))
                .hasMessageContaining("defaultTtlDays is -1");
    }
}
