package org.agentmemory.it;

import static org.agentmemory.it.support.Episodes.episode;
import static org.agentmemory.it.support.Episodes.ns;
import static org.agentmemory.it.support.Episodes.recall;
import static org.agentmemory.it.support.Episodes.record;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Databases;
import org.junit.jupiter.api.Test;

/**
 * Episodic operations over REST on the PostgreSQL server (no reflection model configured there): the fixes of
 * spec §13 (#1 interactions recorded, #2 lessons stored and embedded, #3 compaction deletes, #6 warnings scoped
 * to the user), deduplication, expiry, consolidation marks, export and the agent tools' texts.
 */
class EpisodicOperationsIT {

    private final Api api = Api.postgres();

    private static String run() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void recordedLessonIsStoredEmbeddedAndRecalledByItsWords() {
        Map<String, Object> ns = ns("lessons-" + run(), "ana");
        Api.Response r = api.post(
                "/episodes/lessons",
                Api.obj(
                        "namespace",
                        ns,
                        "situation",
                        "Paging through the audit log",
                        "lesson",
                        "Always request the audit log with a cursor; offsets skip rows under concurrent writes",
                        "importance",
                        42));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        JsonNode lesson = r.json();
        assertThat(lesson.get("lessonLearned").asText()).startsWith("Always request the audit log with a cursor");
        assertThat(lesson.get("lessonSource").asText()).isEqualTo("explicit");
        assertThat(lesson.get("importance").asInt()).isEqualTo(10);
        assertThat(lesson.get("category").asText()).isEqualTo("decision");
        // Found through the lesson's own words, which are not in the situation: the lesson was embedded and indexed.
        for (String mode : List.of("full_text", "vector")) {
            assertThat(recall(api, ns, "cursor offsets concurrent writes", mode, 3))
                    .as(mode)
                    .extracting(h -> h.get("episode").get("episodeId").asText())
                    .contains(lesson.get("episodeId").asText());
        }
        Api.Response tool = api.post(
                "/tools/episodic/record_lesson",
                Api.obj(
                        "namespace",
                        ns,
                        "situation",
                        "Rotating keys",
                        "lesson",
                        "Rotate the signing key before the old one expires"));
        assertThat(tool.status()).isEqualTo(200);
        assertThat(tool.body())
                .matches("Lesson recorded \\(id [0-9a-f-]{36}, importance 5\\): Rotate the signing key"
                        + " before the old one expires");
    }

    @Test
    void interactionIsRecordedAndTrivialOnesAreSkipped() {
        Map<String, Object> ns = ns("interactions-" + run(), "bo");
        Api.Response r = api.post(
                "/episodes/interactions",
                Api.obj(
                        "namespace",
                        ns,
                        "query",
                        "How do I reset the staging database?",
                        "response",
                        "Run the reset job from the admin console."));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        JsonNode ep = r.json();
        assertThat(ep.get("situation").asText()).isEqualTo("How do I reset the staging database?");
        assertThat(ep.get("actionTaken").asText()).isEqualTo("Responded: Run the reset job from the admin console.");
        assertThat(ep.get("category").asText()).isEqualTo("query_resolution");
        assertThat(ep.get("importance").asInt()).isEqualTo(3);
        assertThat(api.post("/episodes/interactions", Api.obj("namespace", ns, "query", "thanks", "response", "ok"))
                        .status())
                .isEqualTo(204);
        assertThat(api.get("/episodes/count"
                                + Api.query("agentId", ns.get("agentId").toString()))
                        .json()
                        .get("count")
                        .asLong())
                .isEqualTo(1);
    }

    @Test
    void identicalContentIsStoredOnceWithItsImportance() {
        Map<String, Object> ns = ns("dedupe-" + run(), null);
        Map<String, Object> first = episode(ns, "Cache warm-up", "Preloaded 10k keys", "success");
        first.put("importance", 9);
        JsonNode a = record(api, first);
        Map<String, Object> second = episode(ns, "Cache warm-up", "Preloaded 10k keys", "success");
        second.put("importance", 2);
        Api.Response again = api.post("/episodes", second);
        assertThat(again.status())
                .as("identical content answers 200: " + again.body())
                .isEqualTo(200);
        JsonNode b = again.json();
        assertThat(b.get("episodeId").asText()).isEqualTo(a.get("episodeId").asText());
        assertThat(b.get("importance").asInt()).isEqualTo(9);
        assertThat(api.get("/episodes/count"
                                + Api.query("agentId", ns.get("agentId").toString()))
                        .json()
                        .get("count")
                        .asLong())
                .isEqualTo(1);
    }

    @Test
    void compactionReallyDeletesAndKeepsFailures() {
        Map<String, Object> ns = ns("compact-" + run(), null);
        for (int i = 0; i < 6; i++) {
            Map<String, Object> body = episode(ns, "Routine sync " + i, "Synced", i < 2 ? "failure" : "success");
            body.put("importance", i < 2 ? 1 : 2 + i);
            record(api, body);
        }
        JsonNode compacted = api.post("/episodes/compact", Api.obj("namespace", ns, "keepTopN", 2))
                .json();
        // Kept: the two most important (7, 6) and both failures; deleted: importance 4 and 5.
        assertThat(compacted.get("deleted").asLong()).isEqualTo(2);
        List<JsonNode> left = recall(api, ns, "routine sync", "full_text", 10);
        assertThat(left)
                .extracting(h -> h.get("episode").get("importance").asInt())
                .containsExactlyInAnyOrder(7, 6, 1, 1);
        assertThat(api.get("/episodes/count"
                                + Api.query("agentId", ns.get("agentId").toString()))
                        .json()
                        .get("count")
                        .asLong())
                .isEqualTo(4);
    }

    @Test
    void warningsAreScopedToTheUser() {
        String agent = "warnings-" + run();
        Map<String, Object> ana = ns(agent, "ana");
        Map<String, Object> bo = ns(agent, "bo");
        Map<String, Object> anaFailure = episode(ana, "Ana's invoice export crashed", "Exported invoices", "failure");
        anaFailure.put("errorMessage", "Connection refused by the export service");
        record(api, anaFailure);
        Map<String, Object> boFailure =
                episode(bo, "Bo's private medical report upload failed", "Uploaded report", "failure");
        boFailure.put("lessonLearned", "Compress scans before upload");
        record(api, boFailure);
        String warnings = api.get("/episodes/warnings"
                        + Api.query("agentId", agent, "userId", "ana", "query", "report upload failed"))
                .body();
        assertThat(warnings)
                .startsWith("MISTAKES TO AVOID:\n- Ana's invoice export crashed \u2014 Connection refused")
                .doesNotContain("Bo's")
                .doesNotContain("medical");
        String tool = api.post("/tools/episodic/get_warnings", Api.obj("namespace", ana))
                .body();
        assertThat(tool).contains("Ana's invoice export crashed").doesNotContain("Bo's");
        assertThat(api.post("/tools/episodic/get_warnings", Api.obj("namespace", ns(agent, "nobody")))
                        .body())
                .isEqualTo("No past failures to warn about.");
        String search = api.post(
                        "/tools/episodic/search_episodic_memory", Api.obj("namespace", ana, "query", "invoice export"))
                .body();
        assertThat(search)
                .startsWith("Found 1 relevant past experience:\n1. [FAILURE] Ana's invoice export crashed")
                .contains("   Error: Connection refused by the export service");
    }

    @Test
    void expiredEpisodesAreHiddenAndDeletedByCleanup() throws Exception {
        Map<String, Object> ns = ns("expiry-" + run(), null);
        JsonNode soon = record(api, episode(ns, "Expiring memory of a flaky cron job", "Retried", "failure"));
        JsonNode later = record(api, episode(ns, "Lasting memory of a flaky cron job", "Retried", "failure"));
        // Time passes in the database: one expired a second ago, the other expires in an hour.
        try (Connection con = Databases.suite()) {
            update(con, soon.get("episodeId").asText(), "now() - interval '1 second'");
            update(con, later.get("episodeId").asText(), "now() + interval '1 hour'");
        }
        assertThat(recall(api, ns, "flaky cron job", "hybrid", 10))
                .extracting(h -> h.get("episode").get("episodeId").asText())
                .containsExactly(later.get("episodeId").asText());
        assertThat(api.post("/episodes/cleanup", "{}").json().get("deleted").asLong())
                .isGreaterThanOrEqualTo(1);
        assertThat(api.get("/episodes/" + soon.get("episodeId").asText()).status())
                .isEqualTo(404);
        assertThat(api.get("/episodes/" + later.get("episodeId").asText()).status())
                .isEqualTo(200);
    }

    @Test
    void consolidationMergesMetadataAndExportIsJsonl() {
        Map<String, Object> ns = ns("consolidate-" + run(), null);
        Map<String, Object> body = episode(ns, "Quarterly report generation", "Generated", "success");
        body.put("metadata", Api.obj("source", "scheduler"));
        JsonNode ep = record(api, body);
        JsonNode updated = api.post(
                        "/episodes/consolidated",
                        Api.obj(
                                "episodeIds",
                                List.of(ep.get("episodeId").asText(), "no-such-episode"),
                                "pageId",
                                "page-7"))
                .json();
        assertThat(updated.get("updated").asInt()).isEqualTo(1);
        JsonNode read = api.get("/episodes/" + ep.get("episodeId").asText()).json();
        assertThat(read.get("metadata").get("source").asText()).isEqualTo("scheduler");
        assertThat(read.get("metadata").get("consolidated_into").asText()).isEqualTo("page-7");
        record(api, episode(ns, "Second report", "Generated", "success"));
        Api.Response export = api.get(
                "/episodes/export" + Api.query("agentId", ns.get("agentId").toString()));
        assertThat(export.contentType()).startsWith("application/x-ndjson");
        String[] lines = export.body().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).contains("Second report");
        assertThat(lines[1]).contains("Quarterly report generation");
    }

    private static void update(Connection con, String episodeId, String expiresAt) throws Exception {
        try (PreparedStatement ps =
                con.prepareStatement("UPDATE episode SET expires_at = " + expiresAt + " WHERE episode_id = ?")) {
            ps.setString(1, episodeId);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }
}
