package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.addTurn;
import static org.agentmemory.it.support.Turns.turn;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.agentmemory.api.recall.QueryTerms;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Embeddings;
import org.agentmemory.it.support.Episodes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Queries of any length (issue 31, items 2 and 9): agents pass whole messages and documents as queries. Every
 * endpoint that searches by a query answers 200 for a query far beyond the search engine's clause limit (about a
 * thousand terms), still finds what the query's first words name, and says in the {@value QueryTerms#HEADER} header
 * that the query was shortened. Prints the p95 latency of a 50,000-word query against a 10-word one.
 */
class LongQueryIT {

    static Stream<Api> servers() {
        return Api.servers(Api.postgres(), Api.h2()).stream();
    }

    /** {@code words} words after {@code first}: many distinct words, so the query exceeds every clause limit. */
    private static String longQuery(String first, int words) {
        return first + " "
                + IntStream.range(0, words)
                        .mapToObj(i -> "filler" + Integer.toString(i, 36))
                        .collect(Collectors.joining(" "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void messageSearchAnswersAQueryOfFiftyThousandWordsInEveryMode(Api api) {
        String user = unique("long-query");
        String marker = "zq" + Long.toString(System.nanoTime(), 36).replaceAll("[0-9]", "x");
        assertThat(api.post(
                                "/turns",
                                addTurn(
                                        "bot",
                                        user,
                                        "s",
                                        turn("t1", "Where is the " + marker + " kept?", "In the blue box.")))
                        .status())
                .isEqualTo(201);
        Embeddings.awaitVectors(api, query("userId", user), Duration.ofMinutes(2));
        String query = longQuery(marker, 50_000);
        for (String mode : List.of("full_text", "hybrid", "vector")) {
            Api.Response r = api.post("/messages/search", obj("userId", user, "query", query, "mode", mode));
            assertThat(r.status()).as("%s: %s", mode, r.body()).isEqualTo(200);
            assertThat(r.header(QueryTerms.HEADER)).as(mode).isEqualTo("kept=200; given=50001");
            if (!mode.equals("vector")) {
                assertThat(r.json().get("hits").findValuesAsText("turnId"))
                        .as(mode)
                        .contains("t1");
            }
        }
        Api.Response shortQuery = api.post("/messages/search", obj("userId", user, "query", marker, "mode", "hybrid"));
        assertThat(shortQuery.status()).isEqualTo(200);
        assertThat(shortQuery.header(QueryTerms.HEADER)).isNull();

        long[] shortTimes = time(
                api,
                obj("userId", user, "query", "where is the " + marker + " kept in the house now", "mode", "hybrid"));
        long[] longTimes = time(api, obj("userId", user, "query", query, "mode", "hybrid"));
        System.out.printf(
                Locale.ROOT,
                "[long-query %s] hybrid message search p95: 10 words %.1f ms, 50,000 words"
                        + " %.1f ms (20 calls each)%n",
                api,
                p95(shortTimes) / 1e6,
                p95(longTimes) / 1e6);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void everyEpisodicEndpointThatTakesAQueryAnswersALongOne(Api api) {
        String agent = unique("long-query-agent");
        String marker = "zq" + Long.toString(System.nanoTime(), 36).replaceAll("[0-9]", "x");
        Map<String, Object> ns = Episodes.ns(agent, "u1");
        Map<String, Object> episode =
                Episodes.episode(ns, "Deploy of " + marker + " failed", "Ran the migration", "failure");
        Episodes.record(api, episode);
        String bodyQuery = longQuery(marker, 50_000);
        for (String mode : List.of("full_text", "hybrid", "vector")) {
            Api.Response r = api.post("/episodes/recall", obj("namespace", ns, "query", bodyQuery, "mode", mode));
            assertThat(r.status()).as("%s: %s", mode, r.body()).isEqualTo(200);
            assertThat(r.header(QueryTerms.HEADER)).as(mode).isNotNull();
            if (mode.equals("full_text")) {
                assertThat(r.body()).contains(marker);
            }
        }
        Api.Response tool =
                api.post("/tools/episodic/search_episodic_memory", obj("namespace", ns, "query", bodyQuery));
        assertThat(tool.status()).as(tool.body()).isEqualTo(200);
        assertThat(tool.header(QueryTerms.HEADER)).isNotNull();
        Api.Response warnings = api.post("/tools/episodic/get_warnings", obj("namespace", ns, "context", bodyQuery));
        assertThat(warnings.status()).as(warnings.body()).isEqualTo(200);
        assertThat(warnings.header(QueryTerms.HEADER)).isNotNull();

        // In a URL: a long query, still far beyond the clause limit.
        String urlQuery = longQuery(marker, 1_500);
        for (String path : List.of("/episodes/warnings", "/episodes/context")) {
            Api.Response r = api.get(path + query("agentId", agent, "userId", "u1", "query", urlQuery));
            assertThat(r.status()).as("%s: %s", path, r.body()).isEqualTo(200);
            assertThat(r.header(QueryTerms.HEADER)).as(path).isEqualTo("kept=200; given=1501");
        }
    }

    private static long[] time(Api api, Map<String, Object> body) {
        api.post("/messages/search", body); // warm
        long[] times = new long[20];
        for (int i = 0; i < times.length; i++) {
            long start = System.nanoTime();
            Api.Response r = api.post("/messages/search", body);
            times[i] = System.nanoTime() - start;
            assertThat(r.status()).isEqualTo(200);
        }
        return times;
    }

    private static double p95(long[] times) {
        List<Long> sorted = new ArrayList<>();
        for (long t : times) {
            sorted.add(t);
        }
        sorted.sort(null);
        return sorted.get((int) Math.ceil(0.95 * sorted.size()) - 1);
    }
}
