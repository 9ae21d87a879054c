package org.agentmemory.it.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.agentmemory.it.support.Api;

/**
 * Right to erasure at scale on the PostgreSQL server (issue 34's benchmark):
 *
 * <ol>
 *   <li>Stores, for the subject and each of {@code bench.erasure.others} (default 100) other users of the same size,
 *       {@code bench.erasure.turns} (default 10,000) turns in 20 sessions through {@code POST /turns/batch}, of which
 *       {@code bench.erasure.omissions} (default 500) carry a distinct tool output above the omission threshold
 *       (offloaded as an omission), and {@code bench.erasure.episodes} (default 2,000) episodes through
 *       {@code POST /episodes/batch}.
 *   </li>
 *   <li>Runs {@code bench.erasure.writers} (default 4) clients that append turns for other users, and measures their
 *       {@code addTurn} latency for a window before the erasure and during it.</li>
 *   <li>Erases the subject with {@code POST /erasures} and reports its wall time, its receipt and the others'
 *       {@code addTurn} p50 / p99 before and during the erasure.</li>
 * </ol>
 * Run: {@code mvn -pl memory-it/suite -am verify -Pbenchmark -DskipTests} with the other programs skipped
 * ({@code -Dbench.erasure.skip=true} skips this one).
 */
public final class ErasureBenchmark {

    private static final String BIG_WORDS =
            "parcel courier depot route invoice ledger account ticket refund warehouse pallet customs";

    private ErasureBenchmark() {}

    /**
     * @param args unused
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        Api api = Api.postgres();
        int others = Integer.getInteger("bench.erasure.others", 100);
        int turns = Integer.getInteger("bench.erasure.turns", 10_000);
        int omissions = Integer.getInteger("bench.erasure.omissions", 500);
        int episodes = Integer.getInteger("bench.erasure.episodes", 2_000);
        int writers = Integer.getInteger("bench.erasure.writers", 4);
        String run = Long.toString(System.currentTimeMillis(), 36);
        String agent = "erasure-" + run;
        String subject = "subject-" + run;

        long ingestStart = System.nanoTime();
        store(api, agent, subject, turns, omissions, episodes);
        for (int u = 0; u < others; u++) {
            store(api, agent, "other-" + u + "-" + run, turns, omissions, episodes);
        }
        double ingestSeconds = (System.nanoTime() - ingestStart) / 1e9;

        // Others keep writing: a window before the erasure, then during it.
        AtomicReference<String> phase = new AtomicReference<>("warm-up");
        List<Long> before = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> during = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger failures = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<?>> clients = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int client = w;
            clients.add(pool.submit(() -> {
                int n = 0;
                while (!"stop".equals(phase.get())) {
                    String user = "other-" + ((client + n * writers) % Math.max(1, others)) + "-" + run;
                    long t0 = System.nanoTime();
                    Api.Response r = api.post(
                            "/turns",
                            Api.obj(
                                    "userId",
                                    user,
                                    "sessionId",
                                    "live-" + client,
                                    "chatbotId",
                                    agent,
                                    "turn",
                                    Api.obj(
                                            "turnId",
                                            "live-" + client + "-" + n,
                                            "userMessage",
                                            "Where is parcel " + n + "?",
                                            "assistantResponse",
                                            "It left the depot.")));
                    long micros = (System.nanoTime() - t0) / 1_000;
                    if (r.status() != 200 && r.status() != 201) {
                        failures.incrementAndGet();
                    }
                    String p = phase.get();
                    if ("before".equals(p)) {
                        before.add(micros);
                    } else if ("during".equals(p)) {
                        during.add(micros);
                    }
                    n++;
                }
                return null;
            }));
        }
        Thread.sleep(3_000);
        phase.set("before");
        Thread.sleep(10_000);
        phase.set("during");
        long start = System.nanoTime();
        Api.Response erased = api.post("/erasures", Api.obj("userId", subject));
        double eraseSeconds = (System.nanoTime() - start) / 1e9;
        phase.set("stop");
        for (Future<?> c : clients) {
            c.get();
        }
        pool.shutdown();
        if (erased.status() != 200) {
            throw new IllegalStateException("erasure failed: " + erased.status() + " " + erased.body());
        }
        JsonNode receipt = erased.json();

        StringBuilder report = new StringBuilder();
        report.append(String.format(
                Locale.ROOT,
                "# Erasure (a subject and %d other users, each %d turns in 20 sessions, %d omissions, %d episodes;"
                        + " PostgreSQL)%n%n| measure | value |%n|---|---:|%n",
                others,
                turns,
                omissions,
                episodes));
        report.append(String.format(Locale.ROOT, "| ingest of all users | %.0f s |%n", ingestSeconds));
        report.append(String.format(Locale.ROOT, "| erasure wall time | %.2f s |%n", eraseSeconds));
        for (String store : List.of(
                "conversations",
                "turns",
                "toolInvocations",
                "omissions",
                "messages",
                "episodes",
                "answers",
                "piiThreads",
                "brainStatements",
                "auditEventsRedacted")) {
            report.append("| receipt: ")
                    .append(store)
                    .append(" | ")
                    .append(receipt.path(store).asLong())
                    .append(" |\n");
        }
        report.append(String.format(
                Locale.ROOT,
                "| others' addTurn (%d clients) before: n, p50, p99 | %d, %s |%n",
                writers,
                before.size(),
                percentiles(before)));
        report.append(String.format(
                Locale.ROOT,
                "| others' addTurn during the erasure: n, p50, p99, max | %d, %s, %.1f ms |%n",
                during.size(),
                percentiles(during),
                during.stream().mapToLong(Long::longValue).max().orElse(0) / 1000.0));
        report.append(String.format(Locale.ROOT, "| others' failed addTurn calls | %d |%n", failures.get()));
        System.out.println(report);
    }

    private static String percentiles(List<Long> micros) {
        long[] sorted;
        synchronized (micros) {
            sorted = micros.stream().mapToLong(Long::longValue).toArray();
        }
        if (sorted.length == 0) {
            return "-";
        }
        Arrays.sort(sorted);
        return String.format(
                Locale.ROOT,
                "%.1f ms, %.1f ms",
                sorted[sorted.length / 2] / 1000.0,
                sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)] / 1000.0);
    }

    /** Stores one user's conversations (with omissions) and episodes. */
    private static void store(Api api, String agent, String user, int turns, int omissions, int episodes) {
        int perSession = Math.max(1, turns / 20);
        int every = omissions == 0 ? Integer.MAX_VALUE : Math.max(1, turns / omissions);
        int stored = 0;
        int offloaded = 0;
        for (int session = 0; stored < turns; session++) {
            List<Map<String, Object>> batch = new ArrayList<>();
            for (int i = 0; i < perSession && stored < turns; i++, stored++) {
                Map<String, Object> turn = Api.obj(
                        "turnId",
                        "t-" + stored,
                        "userMessage",
                        "Where is my parcel number " + stored + " for " + user + "?",
                        "assistantResponse",
                        "Parcel " + stored + " is at the depot.");
                if (stored % every == 0 && offloaded < omissions) {
                    turn.put(
                            "toolInvocations",
                            List.of(Api.obj(
                                    "toolName",
                                    "tracker",
                                    "input",
                                    Api.obj("parcel", stored),
                                    "output",
                                    bigOutput(user, stored))));
                    offloaded++;
                }
                batch.add(turn);
                if (batch.size() == 250) {
                    send(api, agent, user, session, batch);
                    batch = new ArrayList<>();
                }
            }
            if (!batch.isEmpty()) {
                send(api, agent, user, session, batch);
            }
        }
        for (int first = 0; first < episodes; first += 500) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (int i = first; i < Math.min(episodes, first + 500); i++) {
                list.add(Api.obj(
                        "namespace",
                        Api.obj("agentId", agent, "userId", user),
                        "situation",
                        "Tracking parcel " + i + " for " + user,
                        "actionTaken",
                        "Called the tracker",
                        "outcome",
                        i % 5 == 0 ? "failure" : "success",
                        "lessonLearned",
                        "Call the tracker first, case " + i,
                        "generateReflection",
                        false));
            }
            Api.Response r = api.post("/episodes/batch", Api.obj("episodes", list));
            if (r.status() != 200) {
                throw new IllegalStateException("episodes of " + user + ": " + r.status() + " " + r.body());
            }
        }
    }

    private static void send(Api api, String agent, String user, int session, List<Map<String, Object>> batch) {
        Api.Response r = api.post(
                "/turns/batch",
                Api.obj("userId", user, "sessionId", "s" + session, "chatbotId", agent, "turns", batch));
        if (r.status() != 200) {
            throw new IllegalStateException("turns of " + user + ": " + r.status() + " " + r.body());
        }
    }

    /** A distinct output above the omission threshold. */
    private static String bigOutput(String user, int turn) {
        String[] words = BIG_WORDS.split(" ");
        StringBuilder out = new StringBuilder(user).append(' ').append(turn);
        for (int i = 0; i < 2_600; i++) {
            out.append(' ').append(words[(i * 7 + turn) % words.length]).append(i % 10);
        }
        return out.toString();
    }
}
