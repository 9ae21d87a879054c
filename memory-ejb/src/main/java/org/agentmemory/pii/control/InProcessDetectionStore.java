package org.agentmemory.pii.control;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.Forgotten;
import org.agentmemory.api.pii.MessageRole;

/**
 * PII threads in this process (seed 002 {@code InMemoryConversationMemory}, issue 34 item 2): bounded by default to
 * {@value #DEFAULT_MAX_THREADS} threads, the least recently used evicted beyond, and to one day idle, an idle thread
 * expiring on its next access. Nothing survives a restart and nothing is shared between servers: behind a load balancer
 * two servers number the same value differently (use the durable store there). Values are held in clear, in memory
 * only. Thread-safe (one lock); no container types.
 *
 * <p>Right to erasure reaches every server through erasure marks (issue 34 item 4): each erasure of a user has an id
 * that grows with each erasure, and a thread remembers the newest mark of its user it was created under. A view
 * {@link #asOf(long)} bound to the user's newest mark drops a thread created under an older one before it serves it,
 * and {@link #forgetErased} drops every such thread of a user at once.
 */
public final class InProcessDetectionStore implements DetectionStore {

    /** Default bound on threads. */
    public static final int DEFAULT_MAX_THREADS = 10_000;

    /** Default idle time to live. */
    public static final Duration DEFAULT_TTL = Duration.ofDays(1);

    private final int maxThreads;
    private final Duration ttl;
    private final Clock clock;

    /** Threads in access order: the first is the least recently used. */
    private final LinkedHashMap<ThreadKey, Entry> threads = new LinkedHashMap<>(16, 0.75f, true);

    private static final class Entry {
        final LinkedHashMap<String, StoredMessage> messages = new LinkedHashMap<>();
        Instant lastAccess;
        long erasureMark;
    }

    /**
     * @param maxThreads most threads kept, ≥ 1; 0 lifts the bound
     * @param ttl        idle time to live; {@code null} or zero lifts the bound
     * @param clock      the clock the time to live reads (injectable for tests)
     */
    public InProcessDetectionStore(int maxThreads, Duration ttl, Clock clock) {
        if (maxThreads < 0) {
            throw new IllegalArgumentException("maxThreads is " + maxThreads + "; it must be 0 (unbounded) or more.");
        }
        this.maxThreads = maxThreads;
        this.ttl = ttl == null || ttl.isZero() || ttl.isNegative() ? null : ttl;
        this.clock = clock;
    }

    /** @return a store with the default bounds on the system clock */
    public static InProcessDetectionStore bounded() {
        return new InProcessDetectionStore(DEFAULT_MAX_THREADS, DEFAULT_TTL, Clock.systemUTC());
    }

    /** @return how many threads are held now (expired ones included until they are next accessed) */
    public synchronized int size() {
        return threads.size();
    }

    /**
     * @param erasureMark the newest erasure mark of the user of the threads the view is used for, 0 when none
     * @return this store seen by a caller who knows that mark: a thread of that user created under an older mark is
     *         dropped before it is read or written, and a thread created through the view carries the mark
     */
    public DetectionStore asOf(long erasureMark) {
        return new MarkedView(erasureMark);
    }

    /** @return the thread's live entry, after dropping it when it has expired; {@code null} when none */
    private Entry live(ThreadKey thread, Instant now, long erasureMark) {
        Entry entry = threads.get(thread);
        if (entry != null && entry.erasureMark < erasureMark) {
            threads.remove(thread);
            return null;
        }
        if (entry != null && ttl != null && entry.lastAccess.plus(ttl).isBefore(now)) {
            threads.remove(thread);
            return null;
        }
        if (entry != null) {
            entry.lastAccess = now;
        }
        return entry;
    }

    @Override
    public void remember(ThreadKey thread, String messageId, List<Detection> detections, MessageRole role) {
        remember(thread, messageId, detections, role, 0);
    }

    private synchronized void remember(
            ThreadKey thread, String messageId, List<Detection> detections, MessageRole role, long erasureMark) {
        Instant now = clock.instant();
        Entry entry = live(thread, now, erasureMark);
        if (entry == null) {
            entry = new Entry();
            entry.lastAccess = now;
            entry.erasureMark = erasureMark;
            threads.put(thread, entry);
            evict();
        }
        entry.messages.put(messageId, new StoredMessage(messageId, role, detections));
    }

    private void evict() {
        if (maxThreads == 0) {
            return;
        }
        Iterator<ThreadKey> eldest = threads.keySet().iterator();
        while (threads.size() > maxThreads && eldest.hasNext()) {
            eldest.next();
            eldest.remove();
        }
    }

    /** Holds the store's lock for the whole update (updates are short and in memory). */
    @Override
    public synchronized <T> T update(ThreadKey thread, java.util.function.Supplier<T> work) {
        return work.get();
    }

    @Override
    public List<StoredMessage> messages(ThreadKey thread) {
        return messages(thread, 0);
    }

    private synchronized List<StoredMessage> messages(ThreadKey thread, long erasureMark) {
        Entry entry = live(thread, clock.instant(), erasureMark);
        return entry == null ? List.of() : new ArrayList<>(entry.messages.values());
    }

    @Override
    public Forgotten forget(ThreadKey thread) {
        return forget(thread, 0);
    }

    private synchronized Forgotten forget(ThreadKey thread, long erasureMark) {
        Entry entry = threads.remove(thread);
        // a thread erased already is not the caller's to count
        return entry == null || entry.erasureMark < erasureMark
                ? new Forgotten(0, 0)
                : new Forgotten(entry.messages.size(), count(entry));
    }

    private static long count(Entry entry) {
        long detections = 0;
        for (StoredMessage message : entry.messages.values()) {
            detections += message.detections().size();
        }
        return detections;
    }

    @Override
    public synchronized UserErasure forgetUser(String tenantId, String userId) {
        long dropped = 0;
        long detections = 0;
        for (Iterator<Map.Entry<ThreadKey, Entry>> it = threads.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<ThreadKey, Entry> e = it.next();
            if (e.getKey().tenantId().equals(tenantId) && e.getKey().userId().equals(userId)) {
                dropped++;
                detections += count(e.getValue());
                it.remove();
            }
        }
        return new UserErasure(dropped, detections);
    }

    /**
     * Drops the threads of erasures another server answered: those of an erased user (of that tenant) created under
     * an older mark than the user's erasure (a thread created after the erasure, under its mark or a newer one, stays).
     *
     * @param marks   the newest erasure mark of each erased user, keyed by tenant, a line feed and the user's key
     * @param userKey the key of a (tenant, user), computed once per user held
     * @return the threads dropped
     */
    public synchronized int forgetErased(Map<String, Long> marks, BiFunction<String, String, String> userKey) {
        Map<ThreadKey, Long> markOfUser = new HashMap<>();
        int dropped = 0;
        for (Iterator<Map.Entry<ThreadKey, Entry>> it = threads.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<ThreadKey, Entry> e = it.next();
            ThreadKey user = new ThreadKey(e.getKey().tenantId(), e.getKey().userId(), "");
            Long mark = markOfUser.computeIfAbsent(
                    user, u -> marks.getOrDefault(u.tenantId() + '\n' + userKey.apply(u.tenantId(), u.userId()), 0L));
            if (e.getValue().erasureMark < mark) {
                dropped++;
                it.remove();
            }
        }
        return dropped;
    }

    /** The store as seen under one erasure mark; see {@link #asOf(long)}. */
    private final class MarkedView implements DetectionStore {

        private final long erasureMark;

        MarkedView(long erasureMark) {
            this.erasureMark = erasureMark;
        }

        @Override
        public void remember(ThreadKey thread, String messageId, List<Detection> detections, MessageRole role) {
            InProcessDetectionStore.this.remember(thread, messageId, detections, role, erasureMark);
        }

        @Override
        public <T> T update(ThreadKey thread, java.util.function.Supplier<T> work) {
            return InProcessDetectionStore.this.update(thread, work);
        }

        @Override
        public List<StoredMessage> messages(ThreadKey thread) {
            return InProcessDetectionStore.this.messages(thread, erasureMark);
        }

        @Override
        public Forgotten forget(ThreadKey thread) {
            return InProcessDetectionStore.this.forget(thread, erasureMark);
        }

        @Override
        public UserErasure forgetUser(String tenantId, String userId) {
            return InProcessDetectionStore.this.forgetUser(tenantId, userId);
        }
    }
}
