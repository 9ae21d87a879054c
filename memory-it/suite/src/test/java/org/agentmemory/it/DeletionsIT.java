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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Contexts;
import org.agentmemory.it.support.Databases;
import org.agentmemory.it.support.Episodes;
import org.agentmemory.it.support.Tokens;
import org.agentmemory.it.support.Turns;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The other deletes users expect (issue 34 item 5) on real WildFly with H2 and PostgreSQL: an agent's conversations
 * (all users, more than one batch of 100, or one user's), one episode and an agent's episodic memory, and idle
 * conversations; each leaves other agents', users' and tenants' data intact (rows counted on PostgreSQL, documents
 * counted in the Lucene indexes), and the rules on input and roles hold.
 */
class DeletionsIT {

    static Stream<Api> servers() {
        return Api.servers(Api.h2(), Api.postgres()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void deletesAnAgentsConversationsOfOneUserThenOfEveryUserAndNothingElse(Api api) throws Exception {
        String bot = unique("del-bot");
        String otherBot = unique("del-other-bot");
        String u1 = unique("del-u1");
        String u2 = unique("del-u2");
        String words = "The lighthouse keeper logged storm " + unique("w");
        String big = Contexts.words(35, 2_600); // offloaded as an omission, in both agents' conversations
        long u1First = conversationWithOutput(api, bot, u1, "s1", words, big);
        long u1Second = conversation(api, bot, u1, "s2", words);
        long u1OtherBot = conversationWithOutput(api, otherBot, u1, "s1", words, big);
        String kept = omissionOf(api, u1OtherBot);
        assertThat(omissionOf(api, u1First))
                .as("content-addressed: the same id")
                .isEqualTo(kept);
        // u2 holds more than one batch of conversations with the agent, imported in one request.
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 101; i++) {
            lines.append(Api.JSON.writeValueAsString(obj(
                            "key", obj("userId", u2, "sessionId", "s" + i, "chatbotId", bot),
                            "turn", Turns.turn("t-" + i, words + " " + i, "Logged."))))
                    .append('\n');
        }
        Api.Response imported = api.postRaw("/import", lines.toString(), "application/x-ndjson");
        assertThat(imported.status()).as(imported.body()).isEqualTo(200);
        // The same agent and user ids in another tenant.
        Api other = api.as(
                Tokens.of(api, unique("other-tenant"), List.of("memory-admin")).sign());
        long elsewhere = conversation(other, bot, u1, "s1", words);
        awaitIndexed(api, "turn_message", u2, true);

        Api.Response one = api.delete("/chatbots/conversations" + query("chatbotId", bot, "userId", u1));
        assertThat(one.status()).as(one.body()).isEqualTo(200);
        assertThat(one.json().get("deleted").asLong()).isEqualTo(2);
        assertThat(api.get("/conversations/" + u1First).status()).isEqualTo(404);
        assertThat(api.get("/conversations/" + u1Second).status()).isEqualTo(404);
        assertThat(api.get("/conversations/" + u1OtherBot).status()).isEqualTo(200);
        assertThat(api.get("/conversations/" + u1OtherBot + "/omissions/" + kept)
                        .body())
                .as("the other agent's identical omission")
                .isEqualTo(big);
        assertThat(userIdsOf(api, bot)).containsOnly(u2);

        Api.Response all = api.delete("/chatbots/conversations" + query("chatbotId", bot));
        assertThat(all.status()).as(all.body()).isEqualTo(200);
        assertThat(all.json().get("deleted").asLong()).isEqualTo(101);
        assertThat(userIdsOf(api, bot)).isEmpty();
        assertThat(api.get("/conversations/" + u1OtherBot).status()).isEqualTo(200);
        assertThat(other.get("/conversations/" + elsewhere).status()).isEqualTo(200);
        assertThat(searchMessages(api, u2, words)).isEmpty();
        assertThat(searchMessages(api, u1, words))
                .as("the other agent's messages")
                .isNotEmpty();
        awaitIndexed(api, "turn_message", u2, false);

        Api.Response again = api.delete("/chatbots/conversations" + query("chatbotId", bot));
        assertThat(again.json().get("deleted").asLong()).isZero();

        if (api.name().contains("postgres")) {
            try (Connection db = Databases.suite()) {
                assertThat(count(
                                db,
                                "SELECT count(*) FROM conversation WHERE chatbot_key = ? AND tenant_id = ?",
                                bot,
                                "default"))
                        .isZero();
                assertThat(count(db, "SELECT count(*) FROM conversation WHERE chatbot_key = ?", bot))
                        .as("another tenant's conversation")
                        .isEqualTo(1);
                assertThat(count(db, "SELECT count(*) FROM conversation WHERE chatbot_key = ?", otherBot))
                        .isEqualTo(1);
                assertThat(count(db, "SELECT count(*) FROM turn_message WHERE user_id = ?", u2))
                        .isZero();
                assertThat(count(db, "SELECT count(*) FROM turn WHERE user_id = ?", u2))
                        .isZero();
                assertThat(count(
                                db,
                                "SELECT count(*) FROM turn_message WHERE conversation_id IN (?, ?)",
                                u1First,
                                u1Second))
                        .isZero();
                assertThat(count(db, "SELECT count(*) FROM omission WHERE conversation_id = ?", u1First))
                        .isZero();
                assertThat(count(db, "SELECT count(*) FROM omission WHERE conversation_id = ?", u1OtherBot))
                        .isEqualTo(1);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void deletesOneEpisodeOfItsOwnerOnlyThenWipesTheAgent(Api api) throws Exception {
        String agent = unique("del-agent");
        String otherAgent = unique("del-other-agent");
        String alice = unique("alice");
        String bob = unique("bob");
        String words = "The greenhouse irrigation valve " + unique("v") + " stuck open";
        String aliceFirst = episode(api, agent, alice, words + " first");
        String aliceSecond = episode(api, agent, alice, words + " second");
        String bobs = episode(api, agent, bob, words + " bob");
        String aliceElsewhere = episode(api, otherAgent, alice, words + " elsewhere");
        awaitIndexed(api, "episode", bob, true);

        // Another owner's or tenant's episode answers as one that does not exist.
        assertThat(api.delete("/episodes/" + bobs + query("agentId", agent, "userId", alice))
                        .status())
                .isEqualTo(404);
        assertThat(api.delete("/episodes/" + aliceFirst + query("agentId", otherAgent))
                        .status())
                .isEqualTo(404);
        Api other = api.as(
                Tokens.of(api, unique("other-tenant"), List.of("memory-admin")).sign());
        assertThat(other.delete("/episodes/" + aliceFirst + query("agentId", agent))
                        .status())
                .isEqualTo(404);

        Api.Response deleted = api.delete("/episodes/" + aliceFirst + query("agentId", agent, "userId", alice));
        assertThat(deleted.status()).as(deleted.body()).isEqualTo(204);
        assertThat(api.delete("/episodes/" + aliceFirst + query("agentId", agent, "userId", alice))
                        .status())
                .isEqualTo(404);
        assertThat(api.get("/episodes/" + aliceFirst).status()).isEqualTo(404);
        assertThat(api.get("/episodes/" + bobs).status()).isEqualTo(200);
        for (String mode : List.of("full_text", "hybrid")) {
            assertThat(ids(Episodes.recall(api, Episodes.ns(agent, alice), words, mode, 10)))
                    .as(mode)
                    .doesNotContain(aliceFirst)
                    .contains(aliceSecond);
            assertThat(ids(Episodes.recall(api, Episodes.ns(agent, bob), words, mode, 10)))
                    .as(mode)
                    .contains(bobs);
        }

        Api.Response wiped = api.delete("/episodes" + query("agentId", agent));
        assertThat(wiped.status()).as(wiped.body()).isEqualTo(200);
        assertThat(wiped.json().get("deleted").asLong()).isEqualTo(2);
        assertThat(Episodes.recall(api, Episodes.ns(agent, null), words, "hybrid", 10))
                .isEmpty();
        assertThat(api.get("/episodes/count" + query("agentId", agent))
                        .json()
                        .get("count")
                        .asLong())
                .isZero();
        assertThat(api.get("/episodes/" + aliceElsewhere).status()).isEqualTo(200);
        assertThat(ids(Episodes.recall(api, Episodes.ns(otherAgent, alice), words, "full_text", 10)))
                .containsExactly(aliceElsewhere);
        awaitIndexed(api, "episode", bob, false);

        // One user's part of an agent's memory.
        String carol = unique("carol");
        episode(api, otherAgent, carol, words + " carol");
        Api.Response mine = api.delete("/episodes" + query("agentId", otherAgent, "userId", alice));
        assertThat(mine.json().get("deleted").asLong()).isEqualTo(1);
        assertThat(api.get("/episodes/count" + query("agentId", otherAgent))
                        .json()
                        .get("count")
                        .asLong())
                .isEqualTo(1);
        if (api.name().contains("postgres")) {
            try (Connection db = Databases.suite()) {
                assertThat(count(db, "SELECT count(*) FROM episode WHERE agent_id = ?", agent))
                        .isZero();
                assertThat(count(
                                db,
                                "SELECT count(*) FROM episode WHERE agent_id = ? AND user_id = ?",
                                otherAgent,
                                carol))
                        .isEqualTo(1);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void deletesOnlyConversationsIdleBeforeTheCutOffOfTheCallersTenant(Api api) throws Exception {
        Api tenant = api.as(
                Tokens.of(api, unique("idle-tenant"), List.of("memory-admin")).sign());
        String bot = unique("idle-bot");
        long idle = conversation(tenant, bot, "idle-user", "s1", "an old question");
        long sameTimeElsewhere = conversation(api, bot, "idle-user", "s1", "an old question");
        Instant cutOff = updatedAt(tenant, bot, "idle-user").plus(1, ChronoUnit.MICROS);
        long busy = conversation(tenant, bot, "busy-user", "s1", "a newer question");
        Instant busyFirstWrite = updatedAt(tenant, bot, "busy-user");
        assertThat(busyFirstWrite).isAfterOrEqualTo(cutOff);

        Api.Response swept = tenant.delete("/admin/idle-conversations" + query("idleBefore", cutOff.toString()));
        assertThat(swept.status()).as(swept.body()).isEqualTo(200);
        assertThat(swept.json().get("deleted").asLong()).isEqualTo(1);
        assertThat(tenant.get("/conversations/" + idle).status()).isEqualTo(404);
        assertThat(tenant.get("/conversations/" + busy).status()).isEqualTo(200);
        assertThat(api.get("/conversations/" + sameTimeElsewhere).status())
                .as("another tenant's conversation of the same age")
                .isEqualTo(200);

        // Every write refreshes the idle clock: a turn after the first write keeps the conversation.
        Api.Response turn =
                tenant.post("/turns", Turns.addTurn(bot, "busy-user", "s1", Turns.turn("t-2", "still here?", "Yes.")));
        assertThat(turn.status()).as(turn.body()).isEqualTo(201);
        Instant justAfterFirstWrite = busyFirstWrite.plus(1, ChronoUnit.MICROS);
        Api.Response kept =
                tenant.delete("/admin/idle-conversations" + query("idleBefore", justAfterFirstWrite.toString()));
        assertThat(kept.json().get("deleted").asLong()).isZero();
        assertThat(tenant.get("/conversations/" + busy).status()).isEqualTo(200);

        if (api.name().contains("postgres")) {
            try (Connection db = Databases.suite()) {
                assertThat(count(db, "SELECT count(*) FROM conversation WHERE chatbot_key = ?", bot))
                        .isEqualTo(2);
                assertThat(count(db, "SELECT count(*) FROM turn WHERE conversation_id = ?", idle))
                        .isZero();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void refusesMissingOwnersAndCallersWithoutTheRole(Api api) throws Exception {
        String bot = unique("del-rules");
        String user = unique("dora");
        long conversation = conversation(api, bot, user, "s1", "rules of deletion");
        String episode = episode(api, bot, user, "rules of deletion " + unique("e"));

        assertProblem(api.delete("/chatbots/conversations"), 400, "chatbotId");
        assertProblem(api.delete("/chatbots/conversations" + query("userId", user)), 400, "chatbotId");
        assertProblem(api.delete("/episodes"), 400, "agentId");
        assertProblem(api.delete("/episodes/" + episode), 400, "agentId");
        assertProblem(api.delete("/admin/idle-conversations"), 400, "idleBefore");
        assertProblem(api.delete("/admin/idle-conversations" + query("idleBefore", "yesterday")), 400, "idleBefore");

        Api writer = api.as(Tokens.of(api, "default", List.of("memory-writer")).sign());
        Api reader = api.as(Tokens.of(api, "default", List.of("memory-reader")).sign());
        assertThat(writer.delete("/chatbots/conversations" + query("chatbotId", bot))
                        .status())
                .as("every user's conversations need memory-admin")
                .isEqualTo(403);
        assertThat(writer.delete("/episodes" + query("agentId", bot)).status()).isEqualTo(403);
        assertThat(writer.delete("/admin/idle-conversations"
                                + query("idleBefore", Instant.now().toString()))
                        .status())
                .isEqualTo(403);
        assertThat(reader.delete("/chatbots/conversations" + query("chatbotId", bot, "userId", user))
                        .status())
                .isEqualTo(403);
        assertThat(reader.delete("/episodes/" + episode + query("agentId", bot)).status())
                .isEqualTo(403);
        assertThat(reader.delete("/episodes" + query("agentId", bot, "userId", user))
                        .status())
                .isEqualTo(403);
        assertThat(api.get("/conversations/" + conversation).status())
                .as("nothing deleted so far")
                .isEqualTo(200);
        assertThat(api.get("/episodes/" + episode).status()).isEqualTo(200);

        // A writer token narrowed to the user deletes that user's only, even without naming it.
        Api own = api.as(Tokens.of(api, "default", List.of("memory-writer"))
                .withClaim("memory_user", user)
                .sign());
        assertThat(own.delete("/chatbots/conversations" + query("chatbotId", bot, "userId", "someone-else"))
                        .status())
                .isEqualTo(403);
        Api.Response mine = own.delete("/chatbots/conversations" + query("chatbotId", bot));
        assertThat(mine.status()).as(mine.body()).isEqualTo(200);
        assertThat(mine.json().get("deleted").asLong()).isEqualTo(1);
        Api.Response episodes = own.delete("/episodes" + query("agentId", bot));
        assertThat(episodes.status()).as(episodes.body()).isEqualTo(200);
        assertThat(episodes.json().get("deleted").asLong()).isEqualTo(1);
    }

    private static void assertProblem(Api.Response r, int status, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().get("field").asText()).as(r.body()).isEqualTo(field);
    }

    private static long conversation(Api api, String bot, String user, String session, String words) {
        return Contexts.addTurns(api, bot, user, session, List.of(Turns.turn(unique("t"), words, "Noted: " + words)));
    }

    private static long conversationWithOutput(
            Api api, String bot, String user, String session, String words, String output) {
        Map<String, Object> turn = Turns.turn(unique("t"), words, "Read the log.");
        turn.put("toolInvocations", List.of(obj("toolName", "read_log", "input", obj("n", 1), "output", output)));
        return Contexts.addTurns(api, bot, user, session, List.of(turn));
    }

    private static String omissionOf(Api api, long conversation) {
        String turnId = api.get("/conversations/" + conversation)
                .json()
                .get("turns")
                .get(0)
                .get("turnId")
                .asText();
        JsonNode items = api.get("/conversations/" + conversation + "/omissions" + query("turnId", turnId))
                .json()
                .get("items");
        assertThat(items).hasSize(1);
        return items.get(0).asText();
    }

    private static String episode(Api api, String agent, String user, String situation) {
        Map<String, Object> body =
                Episodes.episode(Episodes.ns(agent, user), situation, "Closed the valve by hand", "failure");
        body.put("lessonLearned", "Check the valve before watering");
        return Episodes.record(api, body).get("episodeId").asText();
    }

    private static Instant updatedAt(Api api, String bot, String user) {
        JsonNode items = api.get("/chatbots/conversations" + query("chatbotId", bot, "userId", user))
                .json()
                .get("items");
        assertThat(items).hasSize(1);
        return Instant.parse(items.get(0).get("updatedAt").asText());
    }

    private static List<String> userIdsOf(Api api, String bot) {
        List<String> users = new ArrayList<>();
        api.get("/chatbots/users" + query("chatbotId", bot)).json().get("items").forEach(u -> users.add(u.asText()));
        return users;
    }

    private static List<String> ids(List<JsonNode> hits) {
        List<String> ids = new ArrayList<>();
        for (JsonNode hit : hits) {
            JsonNode episode = hit.has("episode") ? hit.get("episode") : hit;
            ids.add(episode.get("episodeId").asText());
        }
        return ids;
    }

    private static List<JsonNode> searchMessages(Api api, String user, String text) {
        Api.Response r = api.post("/messages/search", obj("userId", user, "query", text, "mode", "full_text"));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> hits = new ArrayList<>();
        r.json().get("hits").forEach(hits::add);
        return hits;
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
        assertThat(docs > 0).as(index + " documents of " + user + " in " + dir).isEqualTo(present);
    }

    private static long count(Connection db, String sql, Object... args) throws Exception {
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
