package org.agentmemory.it;

import static org.agentmemory.it.support.Episodes.ns;
import static org.agentmemory.it.support.Episodes.recall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.SearchStatus;
import org.junit.jupiter.api.Test;

/**
 * The merge after a bulk write, inside the real WildFly with its Lucene index: the H2 server of this suite runs with
 * {@code memory.search.quiet-merge-writes=200} and {@code memory.search.quiet-merge-seconds=2} (see the suite's pom),
 * so 300 episodes written in batches are followed, once writes stop, by a merge of the indexes into one segment
 * that nobody asked for. Before and after it, recall in every mode puts an episode first when asked with its own
 * situation. (Whole rankings are not compared: these near-identical texts tie in BM25, ties are broken by document
 * order, which a merge may change, and k-NN search is approximate.)
 *
 * <p>Not run on Open Liberty (the suite's liberty-rest execution): it tests the H2 server's index merges only.
 */
class SearchMergeIT {

    @Test
    void aBulkWriteIsFollowedByAMergeOnceWritesStop() throws Exception {
        Api api = Api.h2();
        String agent = "merge-it-" + Long.toString(System.nanoTime(), 36);
        Instant start = Instant.now();
        for (int batch = 0; batch < 3; batch++) {
            List<Map<String, Object>> episodes = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                int n = batch * 100 + i;
                episodes.add(Api.obj(
                        "namespace",
                        ns(agent, "user-" + (n % 7)),
                        "situation",
                        situation(n),
                        "actionTaken",
                        "Retried the export after the lock was released",
                        "outcome",
                        n % 3 == 0 ? "failure" : "success",
                        "generateReflection",
                        false));
            }
            Api.Response r = api.post("/episodes/batch", Api.obj("episodes", episodes));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
        }
        assertThat(recall(api, ns(agent, null), "billing export locked table", "full_text", 10))
                .hasSize(10);
        assertFindsEachByItsSituation(api, agent);

        // Checked every 15 s; due 2 s after the last write. Bounded wait.
        Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
        JsonNode status = api.get("/admin/reindex").json();
        while (!SearchStatus.automaticMergeAfter(status, start) && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
            status = api.get("/admin/reindex").json();
        }
        assertThat(SearchStatus.automaticMergeAfter(status, start))
                .as(status.toString())
                .isTrue();
        assertThat(status.get("message").asText())
                .startsWith("segments merged after ")
                .contains("index writes and 2 s without one");
        assertFindsEachByItsSituation(api, agent);
    }

    private static String situation(int n) {
        return "Nightly " + (n % 2 == 0 ? "billing" : "ledger") + " export number " + n + " hit a locked table";
    }

    private static void assertFindsEachByItsSituation(Api api, String agent) {
        for (int n : new int[] {0, 77, 150, 233, 299}) {
            for (String mode : List.of("vector", "hybrid", "full_text")) {
                JsonNode top = recall(api, ns(agent, null), situation(n), mode, 3)
                        .get(0)
                        .get("episode");
                assertThat(top.get("situation").asText()).as(mode + " " + n).isEqualTo(situation(n));
            }
        }
    }
}
