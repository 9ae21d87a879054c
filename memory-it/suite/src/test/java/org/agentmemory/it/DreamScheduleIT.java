package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Api.query;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.agentmemory.it.support.Api;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An enabled dream schedule runs on the server's persistent EJB timer (issue 33 item 3) on every server kind, one
 * server alone: on WildFly's timer store and on Open Liberty's {@code databaseStore} in the PostgreSQL memory
 * database (issue 37; the suite's Liberty server gets it from {@code src/test/liberty/timer-store.xml}). Cycles come
 * once per interval, triggered by the timer, never overlapping; disabling the schedule stops them. {@link
 * DreamTimersIT} covers the restart and two-server cases on WildFly.
 */
class DreamScheduleIT {

    /** Seconds between two cycles. */
    private static final int INTERVAL = 2;

    static Stream<Api> servers() {
        return Api.servers(Api.postgres()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void anEnabledScheduleRunsOnItsTimerOncePerIntervalUntilDisabled(Api api) throws Exception {
        String agent = unique("scheduled");
        Api.Response enabled =
                api.put("/brain/schedule", obj("agentId", agent, "enabled", true, "intervalSeconds", INTERVAL));
        assertThat(enabled.status()).as(enabled.body()).isEqualTo(200);

        List<JsonNode> timed = List.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (timed.size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(500);
            timed = reports(api, agent);
        }
        assertThat(timed)
                .as("timer cycles within 60 s at %d s intervals", INTERVAL)
                .hasSizeGreaterThanOrEqualTo(3);
        assertThat(timed).allSatisfy(r -> assertThat(r.get("trigger").asText()).isEqualTo("timer"));
        for (int i = 1; i < timed.size(); i++) {
            Instant previousEnd =
                    Instant.parse(timed.get(i - 1).get("finishedAt").asText());
            Instant start = Instant.parse(timed.get(i).get("startedAt").asText());
            assertThat(Duration.between(previousEnd, start).toMillis())
                    .as("cycle %d starts an interval after the previous ended: %s", i, timed)
                    .isGreaterThanOrEqualTo(INTERVAL * 1000L - 50);
        }

        Api.Response disabled = api.put("/brain/schedule", obj("agentId", agent, "enabled", false));
        assertThat(disabled.status()).as(disabled.body()).isEqualTo(200);
        Thread.sleep(1_500); // a cycle that had just started ends
        int afterDisable = reports(api, agent).size();
        Thread.sleep(INTERVAL * 3_000L);
        assertThat(reports(api, agent))
                .as("cycles after the schedule was disabled")
                .hasSize(afterDisable);
    }

    /** The agent's cycle reports, oldest first. */
    private static List<JsonNode> reports(Api api, String agent) {
        Api.Response r = api.get("/brain/cycles" + query("agentId", agent));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> items = new ArrayList<>();
        r.json().get("items").forEach(items::add);
        items.sort(Comparator.comparing(n -> Instant.parse(n.get("startedAt").asText())));
        return items;
    }
}
