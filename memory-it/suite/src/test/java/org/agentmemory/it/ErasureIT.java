package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Contexts;
import org.agentmemory.it.support.Databases;
import org.agentmemory.it.support.Embeddings;
import org.agentmemory.it.support.Episodes;
import org.agentmemory.it.support.Tokens;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Right to erasure (issue 34 item 4) on real WildFly with H2 and PostgreSQL: user A is erased while user B holds an
 * identical large tool output and the same words. Right after the call A is absent from the tables (rows counted by A's
 * ids on PostgreSQL), from full-text and vector search with A's exact text, from episodic recall, from the omission
 * store and from brain evidence; B answers exactly as before; a dream cycle afterwards does not bring A back; a second
 * erasure answers zeros; the rules on input and roles hold. {@link ErasureConcurrencyIT} covers concurrent writes.
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it opens the WildFly servers' Lucene index directories to prove erased documents are gone.
 */
class ErasureIT {

    static Stream<Api> servers() {
        return Stream.of(Api.h2(), Api.postgres());
    }

    /** What one user stored. */
    record Stored(String user, long conversationId, String omissionId, List<String> turnIds, List<String> episodeIds) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void erasesTheSubjectEverywhereAndLeavesTheOtherUserExactlyAsBefore(Api api) throws Exception {
        String agent = unique("erase-agent");
        String words = "The courier delivered parcel " + unique("px") + " to the blue door on Elm Street";
        String big = Contexts.words(34, 2_600); // above the omission threshold: offloaded as an omission
        Stored a = store(api, agent, unique("alice"), words, big);
        Stored b = store(api, agent, unique("bob"), words, big);
        // A reuses B's turn id: B's answer under it (answers are keyed by agent and turn id) must survive A's erasure.
        Contexts.addTurns(
                api,
                agent,
                a.user(),
                "s1",
                List.of(obj("turnId", b.turnIds().get(0), "userMessage", "Same id", "assistantResponse", "Fine.")));
        assertThat(a.omissionId()).as("the big tool output is offloaded").isNotNull();
        assertThat(a.omissionId()).as("content-addressed: the same id").isEqualTo(b.omissionId());
        Embeddings.awaitVectors(api, query("userId", a.user()), Duration.ofSeconds(120));
        Embeddings.awaitVectors(api, query("userId", b.user()), Duration.ofSeconds(120));

        // Brain evidence: a page only A supports, and a page with a statement A and B support and one only A supports.
        assertThat(api.post(
                                "/brain/pages",
                                page(
                                        agent,
                                        "Alice page",
                                        "- Only A knows this",
                                        "episode:" + a.episodeIds().get(0)))
                        .status())
                .isEqualTo(201);
        api.post(
                "/brain/pages",
                page(
                        agent,
                        "Shared page",
                        "- Both said this",
                        "episode:" + a.episodeIds().get(1)));
        api.post(
                "/brain/pages",
                page(
                        agent,
                        "Shared page",
                        "- Both said this",
                        "episode:" + b.episodeIds().get(1)));
        api.post(
                "/brain/pages",
                page(
                        agent,
                        "Shared page",
                        "- Only A said that",
                        "turn:" + a.conversationId() + "/" + a.turnIds().get(0)));

        // A statement the dream cycle would write for one of A's episodes cites the episode and the turn it came from;
        // that conversation of A is deleted before the erasure, and the statement must still go.
        long gone = Contexts.addTurns(
                api,
                agent,
                a.user(),
                "s2",
                List.of(obj("turnId", "gone-t1", "userMessage", words + " once more", "assistantResponse", "Ok.")));
        Map<String, Object> goneEpisode =
                Episodes.episode(Episodes.ns(agent, a.user()), words + " (gone)", "Checked the tracker", "success");
        goneEpisode.put("metadata", obj("conversation_id", gone, "turn_id", "gone-t1"));
        String goneEpisodeId =
                Episodes.record(api, goneEpisode).get("episodeId").asText();
        Api.Response gonePage = api.post(
                "/brain/pages",
                obj(
                        "agentId",
                        agent,
                        "title",
                        "Gone page",
                        "category",
                        "note",
                        "body",
                        "- Only A knew this, from a conversation since deleted",
                        "evidence",
                        List.of("episode:" + goneEpisodeId, "turn:" + gone + "/gone-t1")));
        assertThat(gonePage.status()).as(gonePage.body()).isEqualTo(201);
        assertThat(api.delete("/conversations/" + gone).status()).isBetween(200, 204);

        Map<String, String> before = bView(api, agent, b, words);
        awaitIndexed(api, "turn_message", a.user(), true);
        awaitIndexed(api, "episode", a.user(), true);

        Api.Response erased = api.post("/erasures", obj("userId", a.user()));
        assertThat(erased.status()).as(erased.body()).isEqualTo(200);
        JsonNode receipt = erased.json();
        assertThat(receipt.get("userId").asText()).isEqualTo(a.user());
        assertThat(receipt.get("conversations").asLong()).isEqualTo(1);
        assertThat(receipt.get("turns").asLong()).isEqualTo(4);
        assertThat(receipt.get("toolInvocations").asLong()).isEqualTo(1);
        assertThat(receipt.get("omissions").asLong()).isEqualTo(1);
        assertThat(receipt.get("messages").asLong()).isEqualTo(8);
        assertThat(receipt.get("summaries").asLong())
                .as("no round dropped A's turns")
                .isZero();
        assertThat(receipt.get("episodes").asLong()).isEqualTo(4);
        assertThat(receipt.get("answers").asLong()).isEqualTo(1);
        assertThat(receipt.get("piiThreads").asLong()).isEqualTo(1);
        assertThat(receipt.get("piiDetections").asLong()).isEqualTo(2);
        assertThat(receipt.get("brainStatements").asLong()).isEqualTo(3);
        assertThat(receipt.get("brainPagesRevised").asLong()).isEqualTo(1);
        assertThat(receipt.get("brainPagesDeleted").asLong()).isEqualTo(2);

        // A is gone from every read path.
        assertThat(api.get("/conversations/" + a.conversationId()).status()).isEqualTo(404);
        assertThat(api.get("/conversations" + query("userId", a.user())).json().get("items"))
                .isEmpty();
        assertThat(api.get("/conversations/" + a.conversationId() + "/omissions/" + a.omissionId())
                        .status())
                .isEqualTo(404);
        for (String mode : List.of("full_text", "vector", "hybrid")) {
            assertThat(searchMessages(api, a.user(), words, mode)).as(mode).isEmpty();
        }
        assertThat(Episodes.recall(api, Episodes.ns(agent, a.user()), words, "hybrid", 10))
                .isEmpty();
        assertThat(Episodes.recall(api, Episodes.ns(agent, a.user()), words, "vector", 10))
                .isEmpty();
        assertThat(api.get("/answers"
                                + query("agentId", agent, "turnId", a.turnIds().get(0)))
                        .status())
                .isEqualTo(404);
        assertThat(piiDetections(api, a.user()).get("detections"))
                .as("A's PII thread")
                .isEmpty();
        JsonNode pages =
                api.get("/brain/pages" + query("agentId", agent)).json().get("items");
        assertThat(pages).hasSize(1);
        assertThat(pages.toString()).doesNotContain(a.user()).doesNotContain("Only A");
        JsonNode shared = api.get("/brain/pages/" + pages.get(0).get("pageId").asText() + query("agentId", agent))
                .json();
        assertThat(shared.get("body").asText()).isEqualTo("- Both said this");
        assertThat(shared.get("statements").get(0).get("evidence").toString())
                .isEqualTo("[\"episode:" + b.episodeIds().get(1) + "\"]");

        // Not only hidden from queries: the documents are gone from the Lucene indexes themselves.
        awaitIndexed(api, "turn_message", a.user(), false);
        awaitIndexed(api, "episode", a.user(), false);

        // B answers exactly as before.
        assertThat(bView(api, agent, b, words)).isEqualTo(before);
        assertThat(api.get("/conversations/" + b.conversationId() + "/omissions/" + b.omissionId())
                        .body())
                .isEqualTo(big);

        if (api.name().contains("postgres")) {
            assertNoRowsOf(a);
        }

        // A consolidation afterwards does not bring A back; a second erasure finds nothing.
        Api.Response cycle = api.post("/brain/cycles", obj("agentId", agent));
        assertThat(cycle.status()).as(cycle.body()).isEqualTo(200);
        for (JsonNode p :
                api.get("/brain/pages" + query("agentId", agent)).json().get("items")) {
            JsonNode full = api.get("/brain/pages/" + p.get("pageId").asText() + query("agentId", agent))
                    .json();
            for (String id : a.episodeIds()) {
                assertThat(full.toString()).doesNotContain(id);
            }
            assertThat(full.toString()).doesNotContain("turn:" + a.conversationId() + "/");
        }
        JsonNode again = api.post("/erasures", obj("userId", a.user())).json();
        for (String store : List.of(
                "conversations",
                "turns",
                "toolInvocations",
                "omissions",
                "messages",
                "summaries",
                "episodes",
                "answers",
                "piiThreads",
                "piiDetections",
                "brainStatements",
                "brainPagesRevised",
                "brainPagesDeleted",
                "extractedSkills",
                "auditEventsRedacted")) {
            assertThat(again.get(store).asLong()).as(store).isZero();
        }
        assertThat(again.get("receiptId").asText())
                .isNotEqualTo(receipt.get("receiptId").asText());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void refusesAMissingSubjectAndCallersWhoMayNotEraseIt(Api api) throws Exception {
        String agent = unique("erase-rules");
        Stored a = store(api, agent, unique("carol"), "a quiet line " + unique("w"), "small output");
        for (Map<String, Object> body : List.of(obj(), obj("userId", ""), obj("userId", "   "))) {
            Api.Response r = api.post("/erasures", body);
            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.json().get("field").asText()).isEqualTo("userId");
        }
        assertThat(api.postRaw("/erasures", "", "application/json").status()).isEqualTo(400);
        assertThat(api.post("/erasures", obj("userId", "bad\u0000id")).status()).isEqualTo(400);

        String tenant = Tokens.of(api, "default", List.of("memory-writer")).sign();
        assertThat(api.as(tenant).post("/erasures", obj("userId", a.user())).status())
                .as("a writer not narrowed to the user")
                .isEqualTo(403);
        String otherUser = Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_user", "someone-else")
                .sign();
        assertThat(api.as(otherUser).post("/erasures", obj("userId", a.user())).status())
                .isEqualTo(403);
        String narrowedToAgent = Tokens.of(api, "default", List.of("memory-admin"))
                .withClaim("memory_agent", agent)
                .sign();
        assertThat(api.as(narrowedToAgent)
                        .post("/erasures", obj("userId", a.user()))
                        .status())
                .isEqualTo(403);
        String reader = Tokens.of(api, "default", List.of("memory-reader"))
                .withClaim("memory_user", a.user())
                .sign();
        assertThat(api.as(reader).post("/erasures", obj("userId", a.user())).status())
                .isEqualTo(403);
        // Another tenant's admin erases its own tenant's user of that name, not ours.
        String otherTenant =
                Tokens.of(api, "other-" + agent, List.of("memory-admin")).sign();
        Api.Response elsewhere = api.as(otherTenant).post("/erasures", obj("userId", a.user()));
        assertThat(elsewhere.status()).isEqualTo(200);
        assertThat(elsewhere.json().get("conversations").asLong()).isZero();
        assertThat(api.get("/conversations/" + a.conversationId()).status())
                .as("nothing deleted so far")
                .isEqualTo(200);

        // The subject's own token may erase it; the audit event names neither the subject nor its words.
        String own = Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_user", a.user())
                .withSubject(a.user())
                .sign();
        Api.Response mine = api.as(own).post("/erasures", obj("userId", a.user()));
        assertThat(mine.status()).as(mine.body()).isEqualTo(200);
        assertThat(mine.json().get("conversations").asLong()).isEqualTo(1);
        String receiptId = mine.json().get("receiptId").asText();
        JsonNode events = api.get("/admin/audit" + query("limit", "200")).json().get("items");
        JsonNode event = null;
        for (JsonNode e : events) {
            if (e.get("target").asText().contains(receiptId)) {
                event = e;
            }
        }
        assertThat(event).as("the erasure's audit event").isNotNull();
        assertThat(event.get("operation").asText()).isEqualTo("subject.erase");
        assertThat(event.toString()).doesNotContain(a.user());
    }

    private static Map<String, String> bView(Api api, String agent, Stored b, String words) {
        Map<String, String> view = new java.util.LinkedHashMap<>();
        view.put("history", api.get("/conversations/" + b.conversationId()).body());
        for (String mode : List.of("full_text", "vector", "hybrid")) {
            List<JsonNode> hits = searchMessages(api, b.user(), words, mode);
            if (mode.equals("full_text")) {
                // BM25 scores follow the index's term statistics, which lose A's documents: same hits, same order,
                // but not the same score. Vector (cosine) and hybrid (rank fusion) scores must stay equal.
                hits.forEach(h -> ((com.fasterxml.jackson.databind.node.ObjectNode) h).remove("score"));
            }
            view.put("messages " + mode, hits.toString());
        }
        view.put(
                "recall",
                Episodes.recall(api, Episodes.ns(agent, b.user()), words, "hybrid", 10)
                        .toString());
        view.put("pii", piiDetections(api, b.user()).toString());
        view.put(
                "answer",
                api.get("/answers"
                                + query("agentId", agent, "turnId", b.turnIds().get(0)))
                        .body());
        return view;
    }

    private static JsonNode piiDetections(Api api, String user) {
        Api.Response r = api.get("/pii/detections" + query("threadId", user + "-thread", "userId", user));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static List<JsonNode> searchMessages(Api api, String user, String text, String mode) {
        Api.Response r = api.post("/messages/search", obj("userId", user, "query", text, "mode", mode, "topK", 10));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> hits = new ArrayList<>();
        r.json().get("hits").forEach(hits::add);
        return hits;
    }

    /** Stores a conversation of three turns (one with the big tool output), three episodes and an answer. */
    static Stored store(Api api, String agent, String user, String words, String big) {
        String prefix = user + "-t";
        List<String> turnIds = List.of(prefix + 1, prefix + 2, prefix + 3);
        List<Map<String, Object>> turns = List.of(
                obj(
                        "turnId",
                        turnIds.get(0),
                        "userMessage",
                        words,
                        "assistantResponse",
                        "Noted: " + words,
                        "toolInvocations",
                        List.of(obj("toolName", "tracker", "input", obj("q", 1), "output", big))),
                obj("turnId", turnIds.get(1), "userMessage", words + " again", "assistantResponse", "Yes."),
                obj("turnId", turnIds.get(2), "userMessage", "Thanks", "assistantResponse", "You are welcome."));
        long conversation = Contexts.addTurns(api, agent, user, "s1", turns);
        Api.Response omissions =
                api.get("/conversations/" + conversation + "/omissions" + query("turnId", turnIds.get(0)));
        JsonNode items = omissions.json().get("items");
        String omission = items.isEmpty() ? null : items.get(0).asText();
        List<String> episodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Map<String, Object> body = Episodes.episode(
                    Episodes.ns(agent, user), words + " (step " + i + ")", "Checked the tracker", "success");
            body.put("lessonLearned", "Check the tracker before calling the courier, step " + i);
            body.put("metadata", obj("conversation_id", conversation, "turn_id", turnIds.get(i)));
            episodes.add(Episodes.record(api, body).get("episodeId").asText());
        }
        Api.Response answer = api.put(
                "/answers", obj("agentId", agent, "turnId", turnIds.get(0), "question", words, "answer", obj("ok", 1)));
        assertThat(answer.status()).as(answer.body()).isBetween(200, 201);
        Api.Response pii = api.post(
                "/pii/anonymize",
                obj(
                        "threadId",
                        user + "-thread",
                        "userId",
                        user,
                        "messageId",
                        "m1",
                        "text",
                        "Write to " + user + "@example.com or call +44 20 7946 0958"));
        assertThat(pii.status()).as(pii.body()).isEqualTo(200);
        assertThat(pii.json().get("text").asText()).doesNotContain("@example.com");
        return new Stored(user, conversation, omission, turnIds, episodes);
    }

    private static Map<String, Object> page(String agent, String title, String body, String evidence) {
        return obj("agentId", agent, "title", title, "category", "note", "body", body, "evidence", List.of(evidence));
    }

    /** Counts A's rows in every table of the PostgreSQL server's database: all zero. */
    private static void assertNoRowsOf(Stored a) throws Exception {
        try (Connection db = Databases.suite()) {
            assertThat(count(db, "SELECT count(*) FROM conversation WHERE user_id = ?", a.user()))
                    .isZero();
            assertThat(count(db, "SELECT count(*) FROM turn WHERE user_id = ?", a.user()))
                    .isZero();
            assertThat(count(db, "SELECT count(*) FROM turn_message WHERE user_id = ?", a.user()))
                    .isZero();
            assertThat(count(db, "SELECT count(*) FROM turn_message WHERE conversation_id = ?", a.conversationId()))
                    .isZero();
            assertThat(count(
                            db,
                            "SELECT count(*) FROM tool_invocation i JOIN turn t ON i.turn_pk = t.id"
                                    + " WHERE t.conversation_id = ?",
                            a.conversationId()))
                    .isZero();
            assertThat(count(db, "SELECT count(*) FROM omission WHERE conversation_id = ?", a.conversationId()))
                    .isZero();
            assertThat(count(db, "SELECT count(*) FROM omission_turn WHERE conversation_id = ?", a.conversationId()))
                    .isZero();
            assertThat(count(db, "SELECT count(*) FROM episode WHERE user_id = ?", a.user()))
                    .isZero();
            assertThat(count(db, "SELECT count(*) FROM history_summary WHERE user_id = ?", a.user()))
                    .isZero();
            assertThat(count(db, "SELECT count(*) FROM pii_message WHERE user_id = ?", a.user()))
                    .as("A's PII thread rows")
                    .isZero();
            for (String turn : a.turnIds()) {
                assertThat(count(db, "SELECT count(*) FROM answer WHERE turn_id = ?", turn))
                        .isZero();
            }
            for (String episode : a.episodeIds()) {
                assertThat(count(db, "SELECT count(*) FROM brain_page WHERE statements LIKE ?", "%" + episode + "%"))
                        .isZero();
            }
            assertThat(count(
                            db,
                            "SELECT count(*) FROM brain_page WHERE statements LIKE ?",
                            "%turn:" + a.conversationId() + "/%"))
                    .isZero();
            assertThat(count(
                            db,
                            "SELECT count(*) FROM audit_event WHERE caller = ? OR target LIKE ?",
                            a.user(),
                            "%" + a.user() + "%"))
                    .isZero();
        }
    }

    /**
     * Waits until the server's Lucene index holds live documents whose {@code userId} is the user, or none (the index
     * commits on its own interval), reading the index directory read-only.
     */
    private static void awaitIndexed(Api api, String index, String user, boolean present) throws Exception {
        Path dir = api.keys().getParent().resolve("search-v2").resolve(index);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long docs;
        do {
            try (Directory d = FSDirectory.open(dir);
                    DirectoryReader reader = DirectoryReader.open(d)) {
                docs = new IndexSearcher(reader).count(new TermQuery(new Term("userId", user)));
            }
            if ((docs > 0) == present) {
                return;
            }
            Thread.sleep(250);
        } while (System.nanoTime() < deadline);
        assertThat(docs).as(index + " documents of " + user + " in " + dir).isEqualTo(present ? 1 : 0);
    }

    static long count(Connection db, String sql, Object... args) throws Exception {
        try (PreparedStatement s = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
