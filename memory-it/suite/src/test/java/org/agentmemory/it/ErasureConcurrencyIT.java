package org.agentmemory.it;

import static org.agentmemory.it.support.Api.obj;
import static org.agentmemory.it.support.Turns.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentmemory.it.support.Api;
import org.agentmemory.it.support.Databases;
import org.agentmemory.it.support.Turns;
import org.junit.jupiter.api.Test;

/**
 * Erasure concurrent with writes for the same user (issue 34 item 4), on the PostgreSQL server whose rows the test
 * reads directly: two clients keep adding turns to the subject's conversations while it is erased. Afterwards no turn
 * acknowledged before the erasure started is left, and every acknowledged turn is either counted by the receipt or
 * still stored (written after the erasure passed its conversation).
 */
class ErasureConcurrencyIT {

    @Test
    void noTurnAcknowledgedBeforeTheErasureSurvivesItAndTheReceiptCountsWhatWent() throws Exception {
        Api api = Api.postgres();
        String user = unique("dana");
        String agent = unique("erase-race");
        for (int i = 0; i < 40; i++) {
            add(api, agent, user, "s" + (i % 4), "pre-" + i);
        }
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger counter = new AtomicInteger();
        ExecutorService writers = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> running = List.of(
                    writers.submit(() -> write(api, agent, user, stop, counter, acknowledged)),
                    writers.submit(() -> write(api, agent, user, stop, counter, acknowledged)));
            while (acknowledged.size() < 20) {
                Thread.sleep(10);
            }
            Set<String> before = new HashSet<>(acknowledged);
            for (int i = 0; i < 40; i++) {
                before.add("pre-" + i);
            }
            Api.Response erased = api.post("/erasures", obj("userId", user));
            assertThat(erased.status()).as(erased.body()).isEqualTo(200);
            JsonNode receipt = erased.json();
            Thread.sleep(200);
            stop.set(true);
            for (Future<?> f : running) {
                f.get();
            }

            Set<String> left = new HashSet<>();
            try (Connection db = Databases.suite();
                    PreparedStatement s = db.prepareStatement("SELECT turn_id FROM turn WHERE user_id = ?")) {
                s.setString(1, user);
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        left.add(r.getString(1));
                    }
                }
            }
            assertThat(left).as("turns acknowledged before the erasure started").doesNotContainAnyElementsOf(before);
            long total = 40 + acknowledged.size();
            assertThat(receipt.get("turns").asLong() + left.size())
                    .as("each acknowledged turn was counted as deleted or is still stored")
                    .isEqualTo(total);
            assertThat(receipt.get("turns").asLong()).isGreaterThanOrEqualTo(before.size());
        } finally {
            stop.set(true);
            writers.shutdownNow();
        }
    }

    private static Void write(
            Api api, String agent, String user, AtomicBoolean stop, AtomicInteger counter, Set<String> acknowledged) {
        while (!stop.get()) {
            String turnId = "w-" + counter.incrementAndGet();
            if (add(api, agent, user, "s" + (counter.get() % 4), turnId)) {
                acknowledged.add(turnId);
            }
        }
        return null;
    }

    private static boolean add(Api api, String agent, String user, String session, String turnId) {
        Api.Response r = api.post(
                "/turns",
                Turns.addTurn(agent, user, session, Turns.turn(turnId, "Where is my parcel " + turnId, "On its way.")));
        return r.status() == 200 || r.status() == 201;
    }
}
