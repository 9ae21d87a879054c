package org.agentmemory.skills.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.agentmemory.skills.control.SkillExtraction.Extracted;
import org.agentmemory.skills.control.SkillExtraction.SuccessEpisode;
import org.junit.jupiter.api.Test;

/** Skill extraction (spec §9.4 {@code skill_auto_extract}) on fixed successful episodes. */
class SkillExtractionTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

    /** Eleven episodes: one cluster that makes a skill, one too small, one without lessons, one with two tools. */
    static List<SuccessEpisode> fixed() {
        List<SuccessEpisode> e = new ArrayList<>();
        e.add(ep("k1", 1, "tool_execution", List.of("kubectl"), "Check the pod quota before kubectl apply"));
        e.add(ep("k2", 2, "tool_execution", List.of("kubectl"), "Use --dry-run=server before applying"));
        e.add(ep("k3", 3, "tool_execution", List.of("kubectl"), "  Use --dry-run=server before applying  "));
        e.add(ep("k4", 4, "tool_execution", List.of("kubectl"), null));
        e.add(ep("k5", 5, "tool_execution", List.of("kubectl", "kubectl"), "Check the pod quota before kubectl apply"));
        e.add(ep("k6", 6, "tool_execution", List.of("kubectl"), "Roll back with kubectl rollout undo"));
        e.add(ep("p1", 7, "tool_execution", List.of("psql"), "Run migrations off-peak"));
        e.add(ep("p2", 8, "tool_execution", List.of("psql"), "Run migrations off-peak"));
        e.add(ep("q1", 9, "query_resolution", List.of(), null));
        e.add(ep("q2", 10, "query_resolution", List.of(), null));
        e.add(ep("q3", 11, "query_resolution", List.of(), null));
        e.add(ep("h1", 12, "tool_execution", List.of("kubectl", "helm"), "Pin the chart version"));
        e.add(ep("h2", 13, "tool_execution", List.of("helm", "kubectl"), "Pin the chart version"));
        e.add(ep("h3", 14, "tool_execution", List.of("kubectl", "helm"), "Diff the release before upgrading"));
        return e;
    }

    static SuccessEpisode ep(String id, int minute, String category, List<String> tools, String lesson) {
        return new SuccessEpisode(id, T0.plusSeconds(60L * minute), category, tools, lesson);
    }

    @Test
    void aClusterOfSuccessfulEpisodesWithLessonsBecomesASkillNamedByCategoryAndTools() {
        List<Extracted> skills = SkillExtraction.extract(fixed(), 3);

        assertThat(skills)
                .extracting(Extracted::name)
                .containsExactly("Tool Execution with helm, kubectl", "Tool Execution with kubectl");
        Extracted kubectl = skills.get(1);
        // two lessons said twice (the older first), then the one said once; the blank-padded copy counts as the same
        assertThat(kubectl.lessons())
                .containsExactly(
                        "Check the pod quota before kubectl apply",
                        "Use --dry-run=server before applying",
                        "Roll back with kubectl rollout undo");
        assertThat(kubectl.instructions())
                .isEqualTo("- Check the pod quota before kubectl apply\n- Use --dry-run=server before applying\n"
                        + "- Roll back with kubectl rollout undo");
        assertThat(kubectl.tools()).containsExactly("kubectl");
        assertThat(kubectl.category()).isEqualTo("tool_execution");
        assertThat(kubectl.episodes()).isEqualTo(6);
        assertThat(kubectl.evidence())
                .containsExactly("episode:k1", "episode:k2", "episode:k3", "episode:k4", "episode:k5", "episode:k6");
        assertThat(kubectl.description())
                .isEqualTo(
                        "What worked in tool execution with kubectl, distilled from the agent's successful episodes.");
        assertThat(skills.get(0).tools()).containsExactly("helm", "kubectl");
        assertThat(skills.get(0).lessons())
                .containsExactly("Pin the chart version", "Diff the release before upgrading");
    }

    @Test
    void tooSmallClustersAndClustersWithoutLessonsMakeNoSkill() {
        List<Extracted> skills = SkillExtraction.extract(fixed(), 3);
        assertThat(skills).extracting(Extracted::name).doesNotContain("Tool Execution with psql", "Query Resolution");
        assertThat(SkillExtraction.extract(fixed(), 2))
                .extracting(Extracted::name)
                .contains("Tool Execution with psql")
                .doesNotContain("Query Resolution");
        assertThat(SkillExtraction.extract(fixed(), 7)).isEmpty();
    }

    @Test
    void theSameEpisodesInAnyOrderGiveTheSameSkills() {
        List<Extracted> expected = SkillExtraction.extract(fixed(), 3);
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            List<SuccessEpisode> shuffled = new ArrayList<>(fixed());
            Collections.shuffle(shuffled, random);
            assertThat(SkillExtraction.extract(shuffled, 3)).isEqualTo(expected);
        }
    }

    @Test
    void evidenceKeepsTheNewestHundredAndEveryEpisodeWhoseLessonIsQuotedAndLessonsAreCutAndCapped() {
        List<SuccessEpisode> many = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            many.add(ep(String.format("e%03d", i), i, "tool_execution", List.of("git"), "lesson " + (i % 12)));
        }
        many.add(ep("long", 200, "tool_execution", List.of("git"), "x".repeat(700)));
        Extracted git = SkillExtraction.extract(many, 3).get(0);

        assertThat(git.evidence()).contains("episode:long", "episode:e149", "episode:e051");
        // older than the newest hundred: cited when the skill quotes its lesson (0..9), not otherwise (10, 11)
        assertThat(git.evidence()).contains("episode:e000", "episode:e009", "episode:e050");
        assertThat(git.evidence()).doesNotContain("episode:e010", "episode:e011", "episode:e047");
        assertThat(git.evidence()).hasSize(100 + 51 - 8);
        assertThat(git.lessons()).hasSize(SkillExtraction.MAX_LESSONS).allMatch(l -> l.length() <= 500);
        // lessons 0..5 were said 13 times, 6..11 twelve times: the first ten by count then age
        assertThat(git.lessons()).startsWith("lesson 0", "lesson 1", "lesson 2");

        List<SuccessEpisode> wordy = List.of(
                ep("w1", 1, "tool_execution", List.of("jq"), "y".repeat(700)),
                ep("w2", 2, "tool_execution", List.of("jq"), "y".repeat(700)),
                ep("w3", 3, "tool_execution", List.of("jq"), null));
        String cut = SkillExtraction.extract(wordy, 3).get(0).lessons().get(0);
        assertThat(cut).hasSize(SkillExtraction.MAX_LESSON).endsWith("y...");
    }

    @Test
    void aCategoryWithoutToolsIsNamedByItsCategoryAlone() {
        List<SuccessEpisode> e = List.of(
                ep("a", 1, "error_recovery", List.of(), "Retry after a backoff"),
                ep("b", 2, "error_recovery", null, null),
                ep("c", 3, null, List.of(), "Ask before deleting"));
        assertThat(SkillExtraction.extract(e, 2)).extracting(Extracted::name).containsExactly("Error Recovery");
        assertThat(SkillExtraction.name("tool_execution", List.of())).isEqualTo("Tool Execution");
    }
}
