package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.turn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Episodes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every list pages with {@code limit} and an opaque cursor, and an unknown query parameter is a 400 that names it
 * (issue 31 item 5): before, {@code offset} was silently ignored and an agent could not list its episodes.
 */
class PagingIT {

    static Stream<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void turnsPageByCursorWithoutOverlapOrGap(Api api) {
        String user = unique("paging-turns");
        long id = 0;
        for (int i = 1; i <= 5; i++) {
            Api.Response r = api.post("/turns", addTurn("bot", user, "s", turn("t" + i, "q" + i, "a" + i)));
            id = r.json().get("conversationId").asLong();
        }
        String base = "/conversations/" + id + "/turns";
        List<String> seen = pageAll(api, cursor -> base + query("limit", "2", "cursor", cursor), "turns", "turnId");
        assertThat(seen).containsExactly("t1", "t2", "t3", "t4", "t5");

        String cursor =
                api.get(base + query("limit", "2")).json().get("nextCursor").asText();
        assertProblem(api.get(base + query("after", "1", "cursor", cursor)), "cursor", "exclusive");
        assertProblem(api.get(base + query("cursor", "bm90LWEtY3Vyc29y")), "cursor", "cursor-format");
        assertProblem(api.get(base + query("limit", "1001")), "limit", "range");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anAgentListsItsEpisodesNewestFirstPageByPage(Api api) {
        String agent = unique("paging-agent");
        Map<String, Object> ns = Episodes.ns(agent, "u1");
        List<String> recorded = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            recorded.add(
                    0,
                    Episodes.record(api, Episodes.episode(ns, "situation " + i, "action " + i, "success"))
                            .get("episodeId")
                            .asText());
        }
        Episodes.record(api, Episodes.episode(Episodes.ns(unique("other-agent"), "u1"), "elsewhere", "x", "success"));

        List<String> seen = pageAll(
                api,
                cursor -> "/episodes" + query("agentId", agent, "userId", "u1", "limit", "2", "cursor", cursor),
                "items",
                "episodeId");
        assertThat(seen)
                .as("newest first, every episode once, no other agent's")
                .isEqualTo(recorded);

        assertProblem(api.get("/episodes" + query("limit", "2")), "agentId", null);
        assertProblem(api.get("/episodes" + query("agentId", agent, "cursor", "%%%")), "cursor", "cursor-format");
        assertProblem(api.get("/episodes" + query("agentId", agent, "limit", "0")), "limit", null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aTurnsOmissionsPage(Api api) {
        List<Object> invocations = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            invocations.add(obj("toolName", "log" + i, "output", ("line " + i + " of a long log\n").repeat(2000)));
        }
        Api.Response posted = api.post(
                "/turns",
                addTurn(
                        "bot",
                        unique("paging-omissions"),
                        "s",
                        obj(
                                "turnId",
                                "t1",
                                "userMessage",
                                "q",
                                "assistantResponse",
                                "a",
                                "toolInvocations",
                                invocations)));
        assertThat(posted.status()).as(posted.body()).isEqualTo(201);
        long id = posted.json().get("conversationId").asLong();

        List<String> seen = pageAll(
                api,
                cursor -> "/conversations/" + id + "/omissions" + query("turnId", "t1", "limit", "2", "cursor", cursor),
                "items",
                null);
        assertThat(seen).hasSize(3).doesNotHaveDuplicates().allMatch(contentId -> contentId.startsWith("om_"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anUnknownQueryParameterIsA400NamingItAndStoresNothing(Api api) {
        String user = unique("unknown-param");
        Api.Response created = api.post("/turns", addTurn("bot", user, "s", turn("t1", "q", "a")));
        long id = created.json().get("conversationId").asLong();

        assertProblem(
                api.get("/conversations/" + id + "/turns" + query("offset", "10")), "offset", "unknown-parameter");
        assertProblem(api.get("/episodes" + query("agentId", "a", "page", "2")), "page", "unknown-parameter");
        assertProblem(
                api.post("/turns" + query("sync", "true"), addTurn("bot", user, "s", turn("t2", "q2", "a2"))),
                "sync",
                "unknown-parameter");
        assertProblem(api.get("/conversations/" + id + query("verbose", "1")), "verbose", "unknown-parameter");
        assertThat(api.get("/conversations/" + id + "/turns").json().get("turns"))
                .as("the refused turn was not stored")
                .hasSize(1);
        Api.Response known = api.get("/conversations/" + id + "/turns" + query("after", "0", "limit", "5"));
        assertThat(known.status()).as(known.body()).isEqualTo(200);
    }

    /** Follows nextCursor from the first page to the last; collects {@code idField} of each item (or the item). */
    private static List<String> pageAll(Api api, Function<String, String> page, String itemsField, String idField) {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; pages < 20; pages++) {
            Api.Response r = api.get(page.apply(cursor));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            JsonNode items = r.json().get(itemsField);
            assertThat(items.size()).isLessThanOrEqualTo(2);
            items.forEach(item ->
                    seen.add(idField == null ? item.asText() : item.get(idField).asText()));
            if (!r.json().hasNonNull("nextCursor")) {
                return seen;
            }
            cursor = r.json().get("nextCursor").asText();
        }
        throw new AssertionError("more than 20 pages: " + seen);
    }

    private static void assertProblem(Api.Response r, String field, String rule) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.json().get("field").asText()).isEqualTo(field);
        if (rule != null) {
            assertThat(r.json().get("rule").asText()).isEqualTo(rule);
        }
    }
}
