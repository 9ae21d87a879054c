package org.agentmemory.platform.cluster;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this server did itself since it started, for {@code GET /admin/housekeeping}: housekeeping runs per task, and
 * conversation messages its background embedder took from the queue. Tests of several servers add these counters up
 * to check that a task ran once per period between them and that no message was embedded twice. The one owner of
 * these counters on the server (every bean instance counts into it); thread-safe.
 */
@ApplicationScoped
public class ServerWork {

    private final Map<String, AtomicLong> runs = new ConcurrentHashMap<>();
    private final AtomicLong messagesEmbedded = new AtomicLong();

    /**
     * Counts a run of a housekeeping task on this server.
     *
     * @param task the task's name
     */
    public void ran(String task) {
        runs.computeIfAbsent(task, t -> new AtomicLong()).incrementAndGet();
    }

    /**
     * Counts messages this server's embedder took from the queue and committed (embedded, or marked as having no
     * vector).
     *
     * @param messages how many, ≥ 0
     */
    public void embedded(long messages) {
        messagesEmbedded.addAndGet(Math.max(0, messages));
    }

    /** @return runs per task since this server started, by task name (a copy) */
    public Map<String, Long> runs() {
        Map<String, Long> copy = new TreeMap<>();
        runs.forEach((task, count) -> copy.put(task, count.get()));
        return copy;
    }

    /** @return messages embedded by this server since it started */
    public long messagesEmbedded() {
        return messagesEmbedded.get();
    }
}
