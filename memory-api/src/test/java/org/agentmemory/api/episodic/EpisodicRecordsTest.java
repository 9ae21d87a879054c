package org.agentmemory.api.episodic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EpisodicRecordsTest {

    private static final MemoryNamespace NS = MemoryNamespace.of("acme", "planner");

    @Test
    void enumsUseTheReferenceLowerCaseValuesInBothDirections() {
        assertThat(EpisodeOutcome.TIMEOUT.value()).isEqualTo("timeout");
        assertThat(EpisodeOutcome.fromValue(" Partial ")).isEqualTo(EpisodeOutcome.PARTIAL);
        assertThat(EpisodeCategory.USER_PREFERENCE.value()).isEqualTo("user_preference");
        assertThat(EpisodeCategory.fromValue("workflow_pattern")).isEqualTo(EpisodeCategory.WORKFLOW_PATTERN);
        assertThat(LessonSource.fromValue("EXPLICIT")).isEqualTo(LessonSource.EXPLICIT);
        assertThat(RecallMode.FULL_TEXT.value()).isEqualTo("full_text");
        assertThat(EpisodeCategory.values()).hasSize(7);
    }

    @Test
    void unknownEnumValuesListTheValidOnes() {
        assertThatThrownBy(() -> EpisodeOutcome.fromValue("crashed"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Unknown episode outcome 'crashed'; valid values are success, failure, partial and timeout");
        assertThatThrownBy(() -> RecallMode.fromValue(null)).hasMessageContaining("vector, full_text and hybrid");
    }

    @Test
    void onlyFailureAndTimeoutAreFailures() {
        assertThat(EpisodeOutcome.FAILURE.isFailure()).isTrue();
        assertThat(EpisodeOutcome.TIMEOUT.isFailure()).isTrue();
        assertThat(EpisodeOutcome.PARTIAL.isFailure()).isFalse();
        assertThat(EpisodeOutcome.SUCCESS.isFailure()).isFalse();
    }

    @Test
    void namespaceDefaultsTheTenantAndRequiresAnAgent() {
        assertThat(MemoryNamespace.of(null, "a").tenantId()).isEqualTo("default");
        assertThatThrownBy(() -> MemoryNamespace.of("t", " ")).hasMessageContaining("agentId is blank");
        assertThatThrownBy(() -> MemoryNamespace.of("t", null)).hasMessageContaining("agentId is missing");
    }

    @Test
    void scopeLabelTakesTheFirstOfSessionRoomUserCrewAgent() {
        MemoryNamespace all = new MemoryNamespace("t", "a", "u", "s", "r", "c");
        assertThat(all.scopeLabel()).isEqualTo("session:s");
        assertThat(all.withSession(null).scopeLabel()).isEqualTo("room:r");
        assertThat(all.withSession(null).withRoom(null).scopeLabel()).isEqualTo("user:u");
        assertThat(all.withSession(null).withRoom(null).withUser(null).scopeLabel())
                .isEqualTo("crew:c");
        assertThat(MemoryNamespace.of("t", "a").scopeLabel()).isEqualTo("agent:a");
    }

    @Test
    void filterAlwaysHasTenantAndAgentAndOnlyTheOtherIdsThatAreSet() {
        assertThat(MemoryNamespace.of("t", "a").filter())
                .containsExactly(entry("tenantId", "t"), entry("agentId", "a"));
        assertThat(new MemoryNamespace("t", "a", "u", null, "r", null).filter())
                .containsExactly(
                        entry("tenantId", "t"), entry("agentId", "a"), entry("userId", "u"), entry("roomId", "r"));
        assertThat(new MemoryNamespace("t", "a", "u", "s", "r", "c").filter())
                .hasSize(6)
                .containsEntry("sessionId", "s")
                .containsEntry("crewId", "c");
    }

    @Test
    void searchableTextAppendsTheLessonOnlyWhenPresent() {
        assertThat(episode(EpisodeOutcome.SUCCESS, null, null, 5).searchableText())
                .isEqualTo("find invoices | Called search({})");
        assertThat(episode(EpisodeOutcome.SUCCESS, "", null, 5).searchableText())
                .isEqualTo("find invoices | Called search({})");
        assertThat(episode(EpisodeOutcome.FAILURE, "Check ids", LessonSource.MODEL, 5)
                        .searchableText())
                .isEqualTo("find invoices | Called search({}) | Check ids");
    }

    @Test
    void heuristicSuccessLessonsAreNotLessonBearingButHeuristicFailureLessonsAre() {
        assertThat(episode(EpisodeOutcome.SUCCESS, Episode.HEURISTIC_SUCCESS_LESSON, LessonSource.HEURISTIC, 3)
                        .isLessonBearing())
                .isFalse();
        assertThat(episode(EpisodeOutcome.FAILURE, "Add delay between API calls", LessonSource.HEURISTIC, 7)
                        .isLessonBearing())
                .isTrue();
        assertThat(episode(EpisodeOutcome.TIMEOUT, "x", LessonSource.HEURISTIC, 7)
                        .isLessonBearing())
                .isTrue();
        assertThat(episode(EpisodeOutcome.PARTIAL, "Partial success; refine approach", LessonSource.HEURISTIC, 5)
                        .isLessonBearing())
                .isTrue();
    }

    @Test
    void modelAndExplicitLessonsAreLessonBearingEvenOnSuccess() {
        assertThat(episode(EpisodeOutcome.SUCCESS, "Paginate large result sets", LessonSource.MODEL, 3)
                        .isLessonBearing())
                .isTrue();
        assertThat(episode(EpisodeOutcome.SUCCESS, "Users prefer CSV", LessonSource.EXPLICIT, 3)
                        .isLessonBearing())
                .isTrue();
        assertThat(episode(EpisodeOutcome.SUCCESS, "  ", LessonSource.MODEL, 3).isLessonBearing())
                .isFalse();
        assertThat(episode(EpisodeOutcome.FAILURE, null, LessonSource.MODEL, 3).isLessonBearing())
                .isFalse();
    }

    @Test
    void lessonsOfUnknownSourceCountUnlessTheyAreTheHeuristicSuccessLesson() {
        assertThat(episode(EpisodeOutcome.SUCCESS, Episode.HEURISTIC_SUCCESS_LESSON, null, 3)
                        .isLessonBearing())
                .isFalse();
        assertThat(episode(EpisodeOutcome.SUCCESS, "Cache the token", null, 3).isLessonBearing())
                .isTrue();
        assertThat(episode(EpisodeOutcome.FAILURE, Episode.HEURISTIC_SUCCESS_LESSON, null, 3)
                        .isLessonBearing())
                .isTrue();
    }

    @Test
    void dreamEligibilityNeedsImportanceOrALessonAndNoConsolidation() {
        Episode routineSuccess =
                episode(EpisodeOutcome.SUCCESS, Episode.HEURISTIC_SUCCESS_LESSON, LessonSource.HEURISTIC, 3);
        assertThat(routineSuccess.isDreamEligible(5)).isFalse();
        assertThat(routineSuccess.withImportance(5).isDreamEligible(5)).isTrue();
        Episode lesson = episode(EpisodeOutcome.SUCCESS, "Users prefer CSV", LessonSource.EXPLICIT, 1);
        assertThat(lesson.isDreamEligible(5)).isTrue();
        assertThat(lesson.withMetadata(Map.of(Episode.CONSOLIDATED_INTO, "mem-abc"))
                        .isDreamEligible(5))
                .isFalse();
    }

    @Test
    void episodeChecksImportanceAndDefaultsTheCategory() {
        assertThatThrownBy(() -> episode(EpisodeOutcome.SUCCESS, null, null, 11))
                .hasMessage("importance is 11; it must be between 1 and 10 (episode e-1)");
        assertThatThrownBy(() -> episode(EpisodeOutcome.SUCCESS, null, null, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(episode(EpisodeOutcome.SUCCESS, null, null, 1).category()).isEqualTo(EpisodeCategory.TOOL_EXECUTION);
    }

    @Test
    void expiryIsStrictlyBeforeNow() {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        Episode e = new Episode(
                "e",
                NS,
                at,
                at,
                at,
                "s",
                "a",
                EpisodeOutcome.SUCCESS,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                5,
                false,
                null,
                null,
                null);
        assertThat(e.isExpiredAt(at)).isFalse();
        assertThat(e.isExpiredAt(at.plusNanos(1000))).isTrue();
        assertThat(e.withImportance(5).expiresAt()).isEqualTo(at);
    }

    @Test
    void collectionsAreCopiedAndNullMetadataValuesAreKept() {
        List<String> tools = new ArrayList<>(List.of("search"));
        Map<String, Object> meta = new HashMap<>();
        meta.put("k", null);
        EpisodeInput input = EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.SUCCESS)
                .relatedTools(tools)
                .metadata(meta)
                .build();
        tools.add("other");
        assertThat(input.relatedTools()).containsExactly("search");
        assertThat(input.metadata()).containsEntry("k", null);
        assertThat(input.relatedEntities()).isEmpty();
    }

    @Test
    void inputDefaultsAndValidation() {
        EpisodeInput input =
                EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.FAILURE).build();
        assertThat(input.category()).isEqualTo(EpisodeCategory.TOOL_EXECUTION);
        assertThat(input.generateReflection()).isTrue();
        assertThat(input.importance()).isNull();
        assertThat(input.ttlDays()).isNull();
        assertThat(input.toBuilder().importance(9).build().importance()).isEqualTo(9);
        assertThatThrownBy(() -> EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.FAILURE)
                        .importance(0)
                        .build())
                .hasMessage("importance is 0; it must be between 1 and 10, or absent for the automatic value");
        assertThatThrownBy(() -> EpisodeInput.builder(NS, "s", "a", EpisodeOutcome.FAILURE)
                        .ttlDays(-1)
                        .build())
                .hasMessageContaining("ttlDays is -1");
        assertThatThrownBy(() -> EpisodeInput.builder(NS, " ", "a", EpisodeOutcome.FAILURE)
                        .build())
                .hasMessageContaining("situation is blank");
        assertThatThrownBy(() -> EpisodeInput.builder(NS, "s", null, EpisodeOutcome.FAILURE)
                        .build())
                .hasMessageContaining("actionTaken is missing");
        assertThatThrownBy(() -> EpisodeInput.builder(null, "s", "a", EpisodeOutcome.FAILURE)
                        .build())
                .hasMessageContaining("namespace is missing");
        assertThatThrownBy(() -> EpisodeInput.builder(NS, "s", "a", null).build())
                .hasMessageContaining("outcome is missing");
    }

    @Test
    void reflectionResultNamesTheMissingFields() {
        assertThatThrownBy(() -> new ReflectionResult("r", null, null))
                .hasMessage(
                        "A reflection needs reflection, lessonLearned and suggestedAction; missing: lessonLearned suggestedAction");
    }

    private static Episode episode(EpisodeOutcome outcome, String lesson, LessonSource source, int importance) {
        Instant now = Instant.parse("2026-03-01T10:00:00Z");
        return new Episode(
                "e-1",
                NS,
                now,
                now,
                null,
                "find invoices",
                "Called search({})",
                outcome,
                null,
                null,
                null,
                null,
                lesson,
                null,
                source,
                null,
                importance,
                outcome.isFailure(),
                null,
                null,
                null);
    }
}
