package org.agentmemory.pii.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.logging.Logger;
import org.agentmemory.api.config.MemorySettings;
import org.agentmemory.pii.control.DetectionStore;
import org.agentmemory.pii.control.DurableDetectionStore;
import org.agentmemory.pii.control.InProcessDetectionStore;
import org.agentmemory.pii.control.PiiCrypto;
import org.eclipse.microprofile.config.Config;

/**
 * The PII store this server uses (issue 34 item 2), read once at start-up: {@value MemorySettings#PII_STORE} chooses
 * the in-process store (one per server, bounded by {@value MemorySettings#PII_MAX_THREADS} and
 * {@value MemorySettings#PII_IDLE_TTL_SECONDS}) or the durable one, protected by the crypto built from
 * {@value MemorySettings#PII_PEPPER}, {@value MemorySettings#PII_KEY} and {@value MemorySettings#PII_OLD_KEY}. A bad
 * value, or exactly one of pepper and key, fails the deployment with a message naming the keys. A durable store
 * without keys logs a security warning at every start (readiness shows it too).
 */
@Singleton
@Startup
@LocalBean
@ConcurrencyManagement(ConcurrencyManagementType.BEAN) // immutable after start; the in-process store locks itself
public class PiiStores {

    private static final Logger LOG = Logger.getLogger(PiiStores.class.getName());

    @Inject
    Config config;

    private boolean durable;
    private PiiCrypto crypto;
    private InProcessDetectionStore inProcess;
    private final Clock clock = Clock.systemUTC();

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

    /**
     * @param em the caller's entity manager (used by the durable store)
     * @return the store of this server
     */
    public DetectionStore store(EntityManager em) {
        return durable ? durable(em) : inProcess;
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
