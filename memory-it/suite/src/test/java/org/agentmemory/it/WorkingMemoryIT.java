package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Databases;
import org.agentmemory.it.support.Tokens;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Working memory (issue 35 item 1, seed 003) over REST on real WildFly, on H2 and on PostgreSQL with the servers'
 * default settings (capacity 20, promotion after 3 reads, importance threshold 0.7): a round trip of every operation;
 * the 21st short-term item evicts the oldest, also under concurrent writers; promotions by access and by importance
 * persist across requests (and in the table, read directly on PostgreSQL); full-text search finds items and the
 * context stack re-ranks them; another tenant sees none of it and cannot read by id; bad input is a 400 naming the
 * field.
 */
class WorkingMemoryIT {

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    /** A session of its own per test: agent and session ids with characters that must travel encoded. */
    private record Session(String agent, String session) {
        String q(String... more) {
            String[] all = new String[4 + more.length];
            all[0] = "agentId";
            all[1] = agent;
            all[2] = "sessionId";
            all[3] = session;
            System.arraycopy(more, 0, all, 4, more.length);
            return query(all);
        }
    }

    private static Session fresh() {
        return new Session(unique("agent/ü"), unique("session #1"));
    }

    private static JsonNode status(Api.Response r, int expected) {
        assertThat(r.status()).as(r.body()).isEqualTo(expected);
        return r.body().isEmpty() ? null : r.json();
    }

    private static JsonNode store(Api api, Session s, Map<String, Object> body) {
        return status(api.post("/working-memory/items" + s.q(), body), 201);
    }

    private static long store(Api api, Session s, String content, double importance) {
        return store(api, s, obj("content", content, "importance", importance))
                .at("/item/itemId")
                .asLong();
    }

    private static Api.Response patch(Api api, String path, Object body) {
        try {
            String json = Api.JSON.writeValueAsString(body);
            return api.send(HttpRequest.newBuilder(api.uri(path))
                    .header("Content-Type", "application/json")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> contents(JsonNode items) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(
                i.path("item").isMissingNode()
                        ? i.get("content").asText()
                        : i.at("/item/content").asText()));
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void everyOperationRoundTrips(Api api) {
        Session s = fresh();
        JsonNode stack = status(
                api.post("/working-memory/context" + s.q(), obj("type", "task", "data", obj("name", "research"))), 200);
        assertThat(stack.at("/frames/0/type").asText()).isEqualTo("task");

        Api.Response created = api.post(
                "/working-memory/items" + s.q(),
                obj("content", "The customer prefers e-mail", "metadata", obj("colour", "blue", "rank", 2)));
        JsonNode stored = status(created, 201);
        long id = stored.at("/item/itemId").asLong();
        String location = created.header("Location");
        assertThat(location).startsWith(api.base() + "/api/v1/working-memory/items/" + id + "?");
        assertThat(stored.at("/item/tier").asText()).isEqualTo("short_term");
        assertThat(stored.at("/item/importance").asDouble()).isEqualTo(0.5);
        assertThat(stored.at("/item/context/data/name").asText())
                .as("the current frame is attached")
                .isEqualTo("research");
        assertThat(stored.get("evicted")).isEmpty();

        JsonNode read =
                status(api.send(HttpRequest.newBuilder(URI.create(location)).GET()), 200);
        assertThat(read.get("accessCount").asLong()).isEqualTo(1);
        assertThat(read.get("lastAccessedAt").isNull()).isFalse();

        JsonNode changed = status(
                patch(api, "/working-memory/items/" + id + s.q(), obj("content", "The customer prefers phone calls")),
                200);
        assertThat(changed.get("content").asText()).isEqualTo("The customer prefers phone calls");
        assertThat(changed.at("/metadata/colour").asText())
                .as("absent fields stay")
                .isEqualTo("blue");
        assertThat(changed.get("accessCount").asLong())
                .as("an update is no access")
                .isEqualTo(1);

        JsonNode found = status(api.post("/working-memory/retrieve" + s.q(), obj("metadata", obj("rank", 2.0))), 200);
        assertThat(found.get("items")).hasSize(1);
        assertThat(status(api.post("/working-memory/retrieve" + s.q(), obj("metadata", obj("colour", "red"))), 200)
                        .get("items"))
                .isEmpty();

        JsonNode summary = status(api.get("/working-memory/summary" + s.q()), 200);
        assertThat(summary.get("text").asText())
                .isEqualTo("Current context:\n  - task: {\"name\":\"research\"}\n\nRecent activity:\n"
                        + "  - The customer prefers phone calls");

        JsonNode popped = status(api.delete("/working-memory/context/top" + s.q()), 200);
        assertThat(popped.at("/popped/type").asText()).isEqualTo("task");
        assertThat(popped.get("frames")).isEmpty();
        assertThat(status(api.delete("/working-memory/context/top" + s.q()), 200)
                        .get("popped")
                        .isNull())
                .isTrue();
        assertThat(status(api.get("/working-memory/context" + s.q()), 200).get("frames"))
                .isEmpty();

        status(api.delete("/working-memory/items/" + id + s.q()), 204);
        status(api.get("/working-memory/items/" + id + s.q()), 404);
        status(api.delete("/working-memory/items/" + id + s.q()), 404);

        store(api, s, "one", 0.5);
        store(api, s, "two", 0.9);
        api.post("/working-memory/context" + s.q(), obj("type", "task"));
        JsonNode cleared = status(api.delete("/working-memory/session" + s.q()), 200);
        assertThat(cleared.get("items").asLong()).isEqualTo(2);
        assertThat(cleared.get("contextFrames").asInt()).isEqualTo(1);
        assertThat(status(api.get("/working-memory/summary" + s.q()), 200)
                        .get("text")
                        .asText())
                .isEqualTo("No context available.");
        JsonNode again = status(api.delete("/working-memory/session" + s.q()), 200);
        assertThat(again.get("items").asLong()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void theTwentyFirstShortTermItemEvictsTheOldestForGood(Api api) {
        Session s = fresh();
        List<Long> ids = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            ids.add(store(api, s, "note " + i, 0.5));
        }
        long important = store(api, s, "important decision", 0.95);
        JsonNode twentyFirst = store(api, s, obj("content", "note 21"));
        assertThat(twentyFirst.get("evicted")).extracting(JsonNode::asLong).containsExactly(ids.get(0));
        status(api.get("/working-memory/items/" + ids.get(0) + s.q()), 404);

        JsonNode shortTerm =
                status(api.post("/working-memory/retrieve" + s.q(), obj("tier", "short_term", "limit", 100)), 200);
        assertThat(contents(shortTerm.get("items")))
                .hasSize(20)
                .startsWith("note 21", "note 20")
                .doesNotContain("note 1");
        JsonNode longTerm = status(api.post("/working-memory/retrieve" + s.q(), obj("tier", "long_term")), 200);
        assertThat(longTerm.get("items"))
                .extracting(i -> i.get("itemId").asLong())
                .containsExactly(important);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void concurrentWritersNeverExceedTheCapacity(Api api) {
        Session s = fresh();
        List<List<Long>> evicted = Concurrently.run(6, writer -> {
            List<Long> mine = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                JsonNode stored = store(api, s, obj("content", "writer " + writer + " note " + i));
                stored.get("evicted").forEach(e -> mine.add(e.asLong()));
            }
            return mine;
        });
        List<Long> all = evicted.stream().flatMap(List::stream).toList();
        assertThat(all).doesNotHaveDuplicates().hasSize(36 - 20);
        JsonNode left = status(api.post("/working-memory/retrieve" + s.q(), obj("limit", 100)), 200);
        assertThat(left.get("items")).hasSize(20);
        Set<Long> leftIds = new HashSet<>();
        left.get("items").forEach(i -> leftIds.add(i.get("itemId").asLong()));
        assertThat(leftIds).doesNotContainAnyElementsOf(all);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void concurrentFirstWritesOfANewSessionAllLand(Api api) {
        // The first writes of a session race to create its header row; the losers must lock the winner's row.
        for (int round = 0; round < 5; round++) {
            Session s = fresh();
            List<Integer> statuses = Concurrently.run(
                    8,
                    writer -> api.post("/working-memory/context" + s.q(), obj("type", "frame " + writer))
                            .status());
            assertThat(statuses).containsOnly(200);
            assertThat(status(api.get("/working-memory/context" + s.q()), 200).get("frames"))
                    .hasSize(8);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void promotionsByAccessAndByImportancePersistAcrossRequests(Api api) throws Exception {
        Session s = fresh();
        long read = store(api, s, "read three times", 0.5);
        assertThat(status(api.get("/working-memory/items/" + read + s.q()), 200)
                        .get("tier")
                        .asText())
                .isEqualTo("short_term");
        assertThat(status(api.get("/working-memory/items/" + read + s.q()), 200)
                        .get("tier")
                        .asText())
                .isEqualTo("short_term");
        JsonNode third = status(api.get("/working-memory/items/" + read + s.q()), 200);
        assertThat(third.get("tier").asText()).isEqualTo("long_term");
        assertThat(third.get("promotedAt").isNull()).isFalse();

        long direct = store(api, s, "stored important", 0.7);
        long raised = store(api, s, "becomes important", 0.2);
        JsonNode patched = status(patch(api, "/working-memory/items/" + raised + s.q(), obj("importance", 0.8)), 200);
        assertThat(patched.get("tier").asText()).isEqualTo("long_term");

        // A later request sees each promotion, and a later item's eviction pressure never reaches them.
        for (int i = 0; i < 21; i++) {
            store(api, s, "filler " + i, 0.1);
        }
        JsonNode longTerm = status(api.post("/working-memory/retrieve" + s.q(), obj("tier", "long_term")), 200);
        assertThat(longTerm.get("items"))
                .extracting(i -> i.get("itemId").asLong())
                .containsExactlyInAnyOrder(read, direct, raised);
        JsonNode fourth = status(api.get("/working-memory/items/" + read + s.q()), 200);
        assertThat(fourth.get("accessCount").asLong()).isEqualTo(4);
        assertThat(fourth.get("promotedAt").asText())
                .isEqualTo(third.get("promotedAt").asText());

        JsonNode summary = status(api.get("/working-memory/summary" + s.q()), 200);
        assertThat(contents(summary.get("important"))).containsExactly("becomes important");

        if (api.name().contains("postgres")) {
            try (Connection c = Databases.suite();
                    PreparedStatement st = c.prepareStatement("SELECT id, tier, access_count FROM working_item"
                            + " WHERE tenant_id = 'default' AND agent_id = ? AND session_id = ? AND id IN (?, ?, ?)")) {
                st.setString(1, s.agent());
                st.setString(2, s.session());
                st.setLong(3, read);
                st.setLong(4, direct);
                st.setLong(5, raised);
                int rows = 0;
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        rows++;
                        assertThat(rs.getString(2)).as("row %d", rs.getLong(1)).isEqualTo("long_term");
                        if (rs.getLong(1) == read) {
                            assertThat(rs.getLong(3)).isEqualTo(4);
                        }
                    }
                }
                assertThat(rows).isEqualTo(3);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void searchFindsByFullTextAndTheContextStackReranks(Api api) {
        Session s = fresh();
        api.post("/working-memory/context" + s.q(), obj("type", "task", "data", obj("name", "billing")));
        long billing = store(api, s, "Migration notes", 0.5);
        api.delete("/working-memory/context/top" + s.q());
        api.post("/working-memory/context" + s.q(), obj("type", "tool_use", "data", obj("tool", "psql")));
        long psql = store(api, s, "migration migration migration plan", 0.5);
        store(api, s, "lunch order for the team", 0.5);
        api.delete("/working-memory/context/top" + s.q());

        JsonNode plain = status(api.get("/working-memory/search" + s.q("q", "migrations")), 200);
        assertThat(plain.get("hits"))
                .extracting(h -> h.at("/item/itemId").asLong())
                .containsExactly(psql, billing);
        assertThat(plain.at("/hits/0/textScore").asDouble()).isEqualTo(1.0);
        assertThat(plain.at("/hits/1/relevance").asDouble())
                .as("without a context the scaled text score decides")
                .isEqualTo(plain.at("/hits/1/textScore").asDouble());
        assertThat(plain.at("/hits/0/item/accessCount").asLong())
                .as("a search is no access")
                .isZero();

        api.post("/working-memory/context" + s.q(), obj("type", "task", "data", obj("name", "billing")));
        JsonNode reranked = status(api.get("/working-memory/search" + s.q("q", "migrations")), 200);
        assertThat(reranked.get("hits"))
                .extracting(h -> h.at("/item/itemId").asLong())
                .containsExactly(billing, psql);
        JsonNode top = reranked.at("/hits/0");
        assertThat(top.get("contextMatch").asDouble()).isEqualTo(1.0);
        assertThat(top.get("relevance").asDouble())
                .isCloseTo(0.7 * top.get("textScore").asDouble() + 0.3, within(1e-9));
        assertThat(reranked.at("/hits/1/contextMatch").asDouble()).isZero();
        assertThat(reranked.at("/hits/1/relevance").asDouble()).isCloseTo(0.7, within(1e-9));

        JsonNode limited = status(api.get("/working-memory/search" + s.q("q", "migrations", "limit", "1")), 200);
        assertThat(limited.get("hits"))
                .extracting(h -> h.at("/item/itemId").asLong())
                .containsExactly(billing);
        JsonNode longOnly =
                status(api.get("/working-memory/search" + s.q("q", "migrations", "tier", "long_term")), 200);
        assertThat(longOnly.get("hits")).isEmpty();
        assertThat(status(api.get("/working-memory/search" + s.q("q", "quantum")), 200)
                        .get("hits"))
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anotherTenantSeesNoneOfItAndCannotReadById(Api api) {
        Session s = fresh();
        api.post("/working-memory/context" + s.q(), obj("type", "task", "data", obj("name", "secret project")));
        long id = store(api, s, "the launch code is tangerine", 0.9);

        Api other = api.as(
                Tokens.of(api, unique("other-tenant"), List.of("memory-writer")).sign());
        status(other.get("/working-memory/items/" + id + s.q()), 404);
        status(patch(other, "/working-memory/items/" + id + s.q(), obj("content", "overwritten")), 404);
        status(other.delete("/working-memory/items/" + id + s.q()), 404);
        assertThat(status(other.get("/working-memory/search" + s.q("q", "tangerine")), 200)
                        .get("hits"))
                .isEmpty();
        assertThat(status(other.post("/working-memory/retrieve" + s.q(), obj()), 200)
                        .get("items"))
                .isEmpty();
        assertThat(status(other.get("/working-memory/context" + s.q()), 200).get("frames"))
                .isEmpty();
        assertThat(status(other.get("/working-memory/summary" + s.q()), 200)
                        .get("text")
                        .asText())
                .isEqualTo("No context available.");
        assertThat(status(other.delete("/working-memory/session" + s.q()), 200)
                        .get("items")
                        .asLong())
                .isZero();

        Api userScoped = api.as(Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_user", unique("someone"))
                .sign());
        status(userScoped.get("/working-memory/summary" + s.q()), 403);
        Api otherAgent = api.as(Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_agent", unique("another-agent"))
                .sign());
        JsonNode refused = status(otherAgent.get("/working-memory/items/" + id + s.q()), 403);
        assertThat(refused.get("field").asText()).isEqualTo("agentId");
        Api ownAgent = api.as(Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_agent", s.agent())
                .sign());
        JsonNode own = status(ownAgent.get("/working-memory/items/" + id + query("sessionId", s.session())), 200);
        assertThat(own.get("content").asText())
                .as("the token's agent when none is named")
                .contains("tangerine");

        JsonNode mine = status(api.get("/working-memory/search" + s.q("q", "tangerine")), 200);
        assertThat(mine.get("hits")).hasSize(1);
        assertThat(mine.at("/hits/0/item/content").asText()).isEqualTo("the launch code is tangerine");
        assertThat(mine.at("/hits/0/item/accessCount").asLong())
                .as("only the own agent's read counted")
                .isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void badInputIsAProblemNamingTheField(Api api) {
        Session s = fresh();
        String items = "/working-memory/items" + s.q();
        expect(api.post(items, obj("importance", 0.5)), "content");
        expect(api.post(items, obj("content", "   ")), "content");
        expect(api.post(items, obj("content", "x".repeat(32_769))), "content");
        expect(api.post(items, obj("content", "a\u0000b")), "content");
        expect(api.post(items, obj("content", "x", "importance", 1.5)), "importance");
        expect(api.post(items, obj("content", "x", "metadata", obj("k", "v".repeat(16_384)))), "metadata");
        expect(api.post("/working-memory/items" + query("agentId", s.agent()), obj("content", "x")), "sessionId");
        expect(api.post("/working-memory/items" + query("sessionId", s.session()), obj("content", "x")), "agentId");
        expect(
                api.post("/working-memory/items" + query("agentId", "", "sessionId", "s"), obj("content", "x")),
                "agentId");
        expect(
                api.post(
                        "/working-memory/items" + query("agentId", "a", "sessionId", "x".repeat(129)),
                        obj("content", "x")),
                "sessionId");

        String search = "/working-memory/search";
        expect(api.get(search + s.q()), "q");
        expect(api.get(search + s.q("q", "x", "limit", "0")), "limit");
        expect(api.get(search + s.q("q", "x", "limit", "101")), "limit");
        expect(api.get(search + s.q("q", "x", "tier", "medium")), "tier");
        expect(api.get(search + s.q("q", "x".repeat(4_097))), "q");

        String retrieve = "/working-memory/retrieve" + s.q();
        expect(api.post(retrieve, obj("metadata", obj("colour", obj("nested", true)))), "metadata.colour");
        expect(api.post(retrieve, obj("minImportance", -0.1)), "minImportance");
        expect(api.post(retrieve, obj("limit", 0)), "limit");
        expect(api.post(retrieve, obj("tier", "mid_term")), "tier");

        long id = store(api, s, "an item", 0.5);
        expect(patch(api, "/working-memory/items/" + id + s.q(), obj("importance", 2)), "importance");
        expect(patch(api, "/working-memory/items/" + id + s.q(), obj("content", "")), "content");

        String context = "/working-memory/context" + s.q();
        expect(api.post(context, obj("data", obj())), "type");
        expect(api.post(context, obj("type", "task", "data", obj("k", "v".repeat(4_096)))), "data");
        for (int i = 0; i < 32; i++) {
            status(api.post(context, obj("type", "frame " + i)), 200);
        }
        Api.Response tooDeep = api.post(context, obj("type", "one too many"));
        expect(tooDeep, "type");
        assertThat(tooDeep.json().get("rule").asText()).isEqualTo("max-depth");
        assertThat(status(api.get("/working-memory/items/" + id + s.q()), 200)
                        .get("accessCount")
                        .asLong())
                .as("refused requests changed nothing")
                .isEqualTo(1);
    }

    @Test
    void aReaderMaySearchButNotStoreOrReadById() {
        Api api = Api.postgres();
        Session s = fresh();
        long id = store(api, s, "readers search", 0.5);
        Api reader = api.as(Tokens.of(api, "default", List.of("memory-reader")).sign());
        assertThat(status(reader.get("/working-memory/search" + s.q("q", "readers")), 200)
                        .get("hits"))
                .hasSize(1);
        status(reader.post("/working-memory/items" + s.q(), obj("content", "x")), 403);
        status(reader.get("/working-memory/items/" + id + s.q()), 403);
    }

    private static void expect(Api.Response r, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.json().path("field").asText()).as(r.body()).isEqualTo(field);
    }
}
