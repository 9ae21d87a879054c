package org.agentmemory.pii.control;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.pii.Detection;
import org.agentmemory.api.pii.Forgotten;
import org.agentmemory.api.pii.MessageRole;
import org.agentmemory.pii.entity.PiiErasure;
import org.agentmemory.pii.entity.PiiMessage;
import org.agentmemory.pii.entity.PiiThread;
import org.agentmemory.platform.json.CanonicalJson;

/**
 * PII threads in the database, shared by every server on it (seed 002 {@code SqlAlchemyConversationMemory}, issue 34
 * item 2): one {@link PiiMessage} row per message, ids hashed and detections encrypted by a {@link PiiCrypto} (or both
 * in clear with {@link PiiCrypto#plain()}). Works in the caller's transaction on the caller's entity manager; every
 * query names the tenant and the user. First-seen order is the order rows were first written ({@code created_at}, then
 * id).
 */
public final class DurableDetectionStore implements DetectionStore {

    private final EntityManager em;
    private final PiiCrypto crypto;
    private final Clock clock;

    /**
     * @param em     the caller's entity manager, in a transaction for writes
     * @param crypto how keys and values are protected
     * @param clock  the clock of {@code created_at}
     */
    public DurableDetectionStore(EntityManager em, PiiCrypto crypto, Clock clock) {
        this.em = em;
        this.crypto = crypto;
        this.clock = clock;
    }

    @Override
    public void remember(ThreadKey thread, String messageId, List<Detection> detections, MessageRole role) {
        String threadKey = crypto.hash(thread.threadId());
        String messageKey = crypto.hash(messageId);
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        List<PiiMessage> found = em.createQuery(
                        "SELECT m FROM PiiMessage m WHERE m.tenantId = :t AND m.userId = :u AND m.threadKey = :k"
                                + " AND m.messageKey = :m",
                        PiiMessage.class)
                .setParameter("t", thread.tenantId())
                .setParameter("u", thread.userId())
                .setParameter("k", threadKey)
                .setParameter("m", messageKey)
                .getResultList();
        PiiMessage row = found.isEmpty()
                ? new PiiMessage(thread.tenantId(), thread.userId(), threadKey, messageKey, now)
                : found.get(0);
        String payload = crypto.encrypt(write(detections), aad(row));
        row.store(role.name(), detections.size(), crypto.currentKeyId(), payload, now);
        if (found.isEmpty()) {
            em.persist(row);
        }
    }

    /**
     * @param thread a thread
     * @return whether its lock row ({@link PiiThread}) exists, as this transaction sees it
     */
    public boolean hasThreadLock(ThreadKey thread) {
        return !em.createQuery(
                        "SELECT p.id FROM PiiThread p WHERE p.tenantId = :t AND p.userId = :u AND p.threadKey = :k",
                        Long.class)
                .setParameter("t", thread.tenantId())
                .setParameter("u", thread.userId())
                .setParameter("k", crypto.hash(thread.threadId()))
                .setMaxResults(1)
                .getResultList()
                .isEmpty();
    }

    /**
     * Inserts the thread's lock row and flushes; the caller runs it in a transaction of its own before the update, so
     * that concurrent first updates find the row to lock.
     *
     * @param thread a thread without a lock row
     * @throws jakarta.persistence.PersistenceException when another transaction inserted it meanwhile
     */
    public void createThreadLock(ThreadKey thread) {
        em.persist(new PiiThread(
                thread.tenantId(),
                thread.userId(),
                crypto.hash(thread.threadId()),
                crypto.encrypted(),
                clock.instant().truncatedTo(ChronoUnit.MICROS)));
        em.flush();
    }

    /**
     * Locks the thread's lock row ({@code PESSIMISTIC_WRITE}, until the caller's transaction ends) before the work, so
     * that concurrent updates of a thread on any server run one after the other, the first ones included when the
     * caller created the row beforehand ({@link #createThreadLock}). Without a lock row (a thread written before
     * lock rows existed), the thread's message rows are locked instead.
     */
    @Override
    public <T> T update(ThreadKey thread, java.util.function.Supplier<T> work) {
        String threadKey = crypto.hash(thread.threadId());
        List<PiiThread> lock = em.createQuery(
                        "SELECT p FROM PiiThread p WHERE p.tenantId = :t AND p.userId = :u AND p.threadKey = :k",
                        PiiThread.class)
                .setParameter("t", thread.tenantId())
                .setParameter("u", thread.userId())
                .setParameter("k", threadKey)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .getResultList();
        if (lock.isEmpty()) {
            em.createQuery(
                            "SELECT m FROM PiiMessage m WHERE m.tenantId = :t AND m.userId = :u AND m.threadKey = :k",
                            PiiMessage.class)
                    .setParameter("t", thread.tenantId())
                    .setParameter("u", thread.userId())
                    .setParameter("k", threadKey)
                    .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                    .getResultList();
        }
        return work.get();
    }

    @Override
    public List<StoredMessage> messages(ThreadKey thread) {
        List<PiiMessage> rows = em.createQuery(
                        "SELECT m FROM PiiMessage m WHERE m.tenantId = :t AND m.userId = :u AND m.threadKey = :k"
                                + " ORDER BY m.createdAt, m.id",
                        PiiMessage.class)
                .setParameter("t", thread.tenantId())
                .setParameter("u", thread.userId())
                .setParameter("k", crypto.hash(thread.threadId()))
                .getResultList();
        List<StoredMessage> messages = new ArrayList<>(rows.size());
        for (PiiMessage row : rows) {
            // the message id itself is not stored (only its hash); the key stands for it within the thread
            messages.add(new StoredMessage(row.getMessageKey(), MessageRole.valueOf(row.getRole()), read(row)));
        }
        return messages;
    }

    @Override
    public String storedId(String messageId) {
        return crypto.hash(messageId);
    }

    /**
     * Locks the thread's lock row first, in the order every update takes its locks, so that an update in flight
     * commits before the thread is counted and deleted (and nothing it wrote is left behind).
     */
    @Override
    public Forgotten forget(ThreadKey thread) {
        String threadKey = crypto.hash(thread.threadId());
        em.createQuery(
                        "SELECT p FROM PiiThread p WHERE p.tenantId = :t AND p.userId = :u AND p.threadKey = :k",
                        PiiThread.class)
                .setParameter("t", thread.tenantId())
                .setParameter("u", thread.userId())
                .setParameter("k", threadKey)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .getResultList();
        Object[] counts = em.createQuery(
                        "SELECT COUNT(m), COALESCE(SUM(m.detectionCount), 0) FROM PiiMessage m"
                                + " WHERE m.tenantId = :t AND m.userId = :u AND m.threadKey = :k",
                        Object[].class)
                .setParameter("t", thread.tenantId())
                .setParameter("u", thread.userId())
                .setParameter("k", threadKey)
                .getSingleResult();
        for (String entity : List.of("PiiMessage", "PiiThread")) {
            em.createQuery("DELETE FROM " + entity + " m WHERE m.tenantId = :t AND m.userId = :u AND m.threadKey = :k")
                    .setParameter("t", thread.tenantId())
                    .setParameter("u", thread.userId())
                    .setParameter("k", threadKey)
                    .executeUpdate();
        }
        return new Forgotten(((Number) counts[0]).longValue(), ((Number) counts[1]).longValue());
    }

    /**
     * Deletes the user's threads and their lock rows, and records the erasure ({@link PiiErasure}) so that servers
     * holding threads in process drop theirs too. The lock rows are locked first (in id order), as every update takes
     * its locks, so that updates in flight commit before the threads are counted and deleted.
     */
    @Override
    public UserErasure forgetUser(String tenantId, String userId) {
        em.createQuery(
                        "SELECT p FROM PiiThread p WHERE p.tenantId = :t AND p.userId = :u ORDER BY p.id",
                        PiiThread.class)
                .setParameter("t", tenantId)
                .setParameter("u", userId)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .getResultList();
        Object[] counts = em.createQuery(
                        "SELECT COUNT(DISTINCT m.threadKey), COALESCE(SUM(m.detectionCount), 0) FROM PiiMessage m"
                                + " WHERE m.tenantId = :t AND m.userId = :u",
                        Object[].class)
                .setParameter("t", tenantId)
                .setParameter("u", userId)
                .getSingleResult();
        for (String entity : List.of("PiiMessage", "PiiThread")) {
            em.createQuery("DELETE FROM " + entity + " m WHERE m.tenantId = :t AND m.userId = :u")
                    .setParameter("t", tenantId)
                    .setParameter("u", userId)
                    .executeUpdate();
        }
        em.persist(new PiiErasure(
                tenantId, crypto.userKey(tenantId, userId), clock.instant().truncatedTo(ChronoUnit.MICROS)));
        return new UserErasure(((Number) counts[0]).longValue(), ((Number) counts[1]).longValue());
    }

    /**
     * Rewrites up to {@code limit} rows of a tenant that are not under the current key: decrypted under their key (the
     * old key, or clear), ids hashed when they were stored in clear, encrypted under the current key.
     *
     * @param tenantId the tenant
     * @param limit    most rows
     * Lock rows of threads keyed in clear are dropped (the thread's next update creates its hashed one).
     *
     * @return how many rows were rewritten; fewer than {@code limit} means none is left
     */
    public int reencrypt(String tenantId, int limit) {
        if (!crypto.encrypted()) {
            return 0;
        }
        em.createQuery("DELETE FROM PiiThread p WHERE p.tenantId = :t AND p.hashed = false")
                .setParameter("t", tenantId)
                .executeUpdate();
        List<PiiMessage> rows = em.createQuery(
                        "SELECT m FROM PiiMessage m WHERE m.tenantId = :t AND m.keyId <> :k ORDER BY m.id",
                        PiiMessage.class)
                .setParameter("t", tenantId)
                .setParameter("k", crypto.currentKeyId())
                .setMaxResults(limit)
                .getResultList();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        for (PiiMessage row : rows) {
            String json = crypto.decrypt(row.getKeyId(), row.getPayload(), aad(row));
            if (PiiCrypto.PLAIN.equals(row.getKeyId())) {
                String thread = crypto.hash(row.getThreadKey());
                String message = crypto.hash(row.getMessageKey());
                if (hashedTwin(row, thread, message)) {
                    // The message was remembered again once keys were set: the newer, hashed row supersedes this one.
                    em.remove(row);
                    continue;
                }
                row.rekey(thread, message);
            }
            row.store(
                    row.getRole(), row.getDetectionCount(), crypto.currentKeyId(), crypto.encrypt(json, aad(row)), now);
        }
        return rows.size();
    }

    /** @return whether a row already holds the clear row's message under its hashed ids */
    private boolean hashedTwin(PiiMessage row, String thread, String message) {
        return !em.createQuery(
                        "SELECT m.id FROM PiiMessage m WHERE m.tenantId = :t AND m.userId = :u AND m.threadKey = :th"
                                + " AND m.messageKey = :m",
                        Long.class)
                .setParameter("t", row.getTenantId())
                .setParameter("u", row.getUserId())
                .setParameter("th", thread)
                .setParameter("m", message)
                .setMaxResults(1)
                .getResultList()
                .isEmpty();
    }

    /** The row's identity bound to its ciphertext, so a payload copied to another row does not decrypt. */
    private static String aad(PiiMessage row) {
        return row.getTenantId() + '\n' + row.getUserId() + '\n' + row.getThreadKey() + '\n' + row.getMessageKey();
    }

    private static String write(List<Detection> detections) {
        List<Map<String, Object>> list = new ArrayList<>(detections.size());
        for (Detection d : detections) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("l", d.label());
            m.put("v", d.value());
            m.put("s", d.start());
            m.put("e", d.end());
            m.put("c", d.confidence());
            m.put("p", d.placeholder());
            list.add(m);
        }
        return CanonicalJson.write(list);
    }

    private List<Detection> read(PiiMessage row) {
        String json = crypto.decrypt(row.getKeyId(), row.getPayload(), aad(row));
        Object parsed;
        try {
            parsed = CanonicalJson.parse(json);
        } catch (IOException e) {
            throw new IllegalStateException("PII row " + row.getId() + " does not hold JSON: " + e.getMessage(), e);
        }
        List<Detection> detections = new ArrayList<>();
        for (Object item : (List<?>) parsed) {
            Map<?, ?> m = (Map<?, ?>) item;
            detections.add(new Detection(
                    (String) m.get("l"),
                    (String) m.get("v"),
                    ((Number) m.get("s")).intValue(),
                    ((Number) m.get("e")).intValue(),
                    ((Number) m.get("c")).doubleValue(),
                    (String) m.get("p")));
        }
        return detections;
    }
}
