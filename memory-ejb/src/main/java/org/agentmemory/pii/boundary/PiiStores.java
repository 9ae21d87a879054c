package org.agentmemory.pii.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;
import org.agentmemory.api.config.MemorySettings;
import org.agentmemory.pii.control.DetectionStore;
import org.agentmemory.pii.control.DurableDetectionStore;
import org.agentmemory.pii.control.InProcessDetectionStore;
import org.agentmemory.pii.control.PiiCrypto;
import org.agentmemory.pii.control.ThreadKey;
import org.agentmemory.pii.entity.PiiErasure;
import org.eclipse.microprofile.config.Config;

/**
 * The PII store this server uses (issue 34 item 2), read once at start-up: {@value MemorySettings#PII_STORE} chooses
 * the in-process store (one per server, bounded by {@value MemorySettings#PII_MAX_THREADS} and
 * {@value MemorySettings#PII_IDLE_TTL_SECONDS}) or the durable one, protected by the crypto built from
 * {@value MemorySettings#PII_PEPPER}, {@value MemorySettings#PII_KEY} and {@value MemorySettings#PII_OLD_KEY}. A bad
 * value, or exactly one of pepper and key, fails the deployment with a message naming the keys. A durable store
 * without keys logs a security warning at every start (readiness shows it too).
 *
 * <p>Right to erasure reaches the in-process stores of every server over one database (issue 34 item 4): an erasure is
 * recorded in {@code pii_erasure}; each read or write of a thread in process first looks up its user's newest erasure
 * and a thread created before it is dropped ({@link InProcessDetectionStore#asOf}); every
 * {@value #POLL_SECONDS} seconds each server also drops every thread of the users erased in the last
 * {@value #POLL_WINDOW_SECONDS} seconds, so that their values leave its memory without waiting to be accessed.
 */
@Singleton
@Startup
@LocalBean
@ConcurrencyManagement(ConcurrencyManagementType.BEAN) // immutable after start; the in-process store locks itself
public class PiiStores {

    private static final Logger LOG = Logger.getLogger(PiiStores.class.getName());

    /** How often recent erasures are read; {@code @Schedule} below says the same. */
    static final int POLL_SECONDS = 30;

    /** How far back each poll reads, so that a late commit or a clock behind by less is still seen. */
    static final int POLL_WINDOW_SECONDS = 300;

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @Inject
    Config config;

    private boolean durable;
    private PiiCrypto crypto;
    private InProcessDetectionStore inProcess;
    private final Clock clock = Clock.systemUTC();

    /** Erasures of the current window already applied; only the timer thread touches it. */
    private final Set<Long> polled = new HashSet<>();

    @PostConstruct
    void start() {
        String store = config.getOptionalValue(MemorySettings.PII_STORE, String.class)
                .orElse(MemorySettings.Defaults.PII_STORE)
                .strip()
                .toLowerCase(Locale.ROOT);
        if (!store.equals("memory") && !store.equals("durable")) {
            throw new IllegalStateException(MemorySettings.PII_STORE + " is '" + store
                    + "'; it must be memory (in-process, per server) or durable (the database, every server).");
        }
        durable = store.equals("durable");
        int maxThreads = config.getOptionalValue(MemorySettings.PII_MAX_THREADS, Integer.class)
                .orElse(MemorySettings.Defaults.PII_MAX_THREADS);
        long ttl = config.getOptionalValue(MemorySettings.PII_IDLE_TTL_SECONDS, Long.class)
                .orElse(MemorySettings.Defaults.PII_IDLE_TTL_SECONDS);
        if (maxThreads < 0 || ttl < 0) {
            throw new IllegalStateException(MemorySettings.PII_MAX_THREADS + " is " + maxThreads + " and "
                    + MemorySettings.PII_IDLE_TTL_SECONDS + " is " + ttl
                    + "; both must be 0 (no bound) or more (threads, seconds).");
        }
        crypto = PiiCrypto.of(
                config.getOptionalValue(MemorySettings.PII_PEPPER, String.class).orElse(null),
                config.getOptionalValue(MemorySettings.PII_KEY, String.class).orElse(null),
                config.getOptionalValue(MemorySettings.PII_OLD_KEY, String.class)
                        .orElse(null));
        inProcess = new InProcessDetectionStore(maxThreads, Duration.ofSeconds(ttl), clock);
        if (durable && !crypto.encrypted()) {
            LOG.warning("SECURITY: the durable PII store (" + MemorySettings.PII_STORE + "=durable) has no keys: thread"
                    + " ids and detected personal data are written to the database in clear. Set "
                    + MemorySettings.PII_PEPPER + " and " + MemorySettings.PII_KEY
                    + " (from the environment: MEMORY_PII_PEPPER, MEMORY_PII_KEY).");
        } else {
            LOG.info(() -> "PII store: " + store + (durable ? ", keys hashed and values encrypted" : ""));
        }
    }

    /** @return whether this server keeps PII threads in the database */
    public boolean isDurable() {
        return durable;
    }

    /**
     * @param em     the caller's entity manager
     * @param thread the thread the caller works on
     * @return the store of this server for that thread: the durable one over {@code em}, or the in-process one as of
     *         the newest erasure of the thread's user
     */
    public DetectionStore store(EntityManager em, ThreadKey thread) {
        if (durable) {
            return durable(em);
        }
        Long mark = em.createQuery(
                        "SELECT MAX(e.id) FROM PiiErasure e WHERE e.tenantId = :t AND e.userKey = :k", Long.class)
                .setParameter("t", thread.tenantId())
                .setParameter("k", crypto.userKey(thread.tenantId(), thread.userId()))
                .getSingleResult();
        return inProcess.asOf(mark == null ? 0 : mark);
    }

    /**
     * Drops from this server's in-process store the threads of every user erased recently on any server (the
     * erasures of the last {@value #POLL_WINDOW_SECONDS} seconds not applied yet); a thread created after an erasure
     * stays. One keyed hash per user held, however many erasures. Runs on every server of a cluster, under no lease
     * (issue 36 item 2): each server's in-process store is its own memory, which only that server can clear.
     */
    @Schedule(second = "*/30", minute = "*", hour = "*", persistent = false, info = "PII erasures of other servers")
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void dropErased() {
        if (durable) {
            return;
        }
        List<PiiErasure> erasures = em.createQuery(
                        "SELECT e FROM PiiErasure e WHERE e.erasedAt >= :since ORDER BY e.id", PiiErasure.class)
                .setParameter("since", clock.instant().minusSeconds(POLL_WINDOW_SECONDS))
                .getResultList();
        // each erasure once: the window overlaps from poll to poll so that a late commit is still seen
        Map<String, Long> marks = new HashMap<>();
        Set<Long> inWindow = new HashSet<>();
        for (PiiErasure erasure : erasures) {
            inWindow.add(erasure.getId());
            if (!polled.contains(erasure.getId())) {
                marks.merge(erasure.getTenantId() + '\n' + erasure.getUserKey(), erasure.getId(), Math::max);
            }
        }
        polled.retainAll(inWindow);
        polled.addAll(inWindow);
        if (marks.isEmpty() || inProcess.size() == 0) {
            return;
        }
        int dropped = inProcess.forgetErased(marks, crypto::userKey);
        if (dropped > 0) {
            LOG.info(() -> "Dropped " + dropped + " in-process PII threads of users erased on any server");
        }
    }

    /**
     * @param em the caller's entity manager
     * @return the durable store over it, whatever the configured store is (erasure and re-encryption reach both)
     */
    public DurableDetectionStore durable(EntityManager em) {
        return new DurableDetectionStore(em, crypto, clock);
    }

    /** @return the in-process store, whatever the configured store is */
    public InProcessDetectionStore inProcess() {
        return inProcess;
    }
}
