package org.agentmemory.platform.search;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.logging.Logger;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.ranking.HybridPipeline;

/**
 * Hybrid recall on the search engine, decided at start-up (issue 36 item 4, decision 0021). On an OpenSearch
 * cluster ({@code memory.search.backend=elasticsearch}) with {@code memory.search.engine-hybrid=auto}, asks the
 * cluster ({@code memory.search.uris}, {@code memory.search.username}/{@code password}) for the neural-search
 * plugin and creates the search pipeline ({@link EngineHybrid#detect}); otherwise hybrid recall stays client-side.
 * The decision is published as system properties for the readiness check ({@link EngineHybrid#MODE_PROPERTY}).
 *
 * <p>When no node answered at start-up, the first hybrid recall after {@value #RETRY_SECONDS} seconds asks again;
 * when an engine hybrid query fails, the caller reports it ({@link #engineFailed}) and the next recall after that
 * period asks again (the pipeline may have been deleted). Until then recall is client-side.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class EngineHybridBean {

    private static final Logger LOG = Logger.getLogger(EngineHybridBean.class.getName());

    /** Seconds between two detections after no node answered or an engine query failed. */
    static final int RETRY_SECONDS = 30;

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @Inject
    Settings settings;

    private volatile EngineHybrid.Decision decision =
            EngineHybrid.Decision.clientSide("not decided yet (the server is starting)");
    private volatile long retryAtNanos;

    @PostConstruct
    void start() {
        decide();
    }

    /**
     * @return the pipeline hybrid recall sends its {@code hybrid} query through, or {@code null}: fuse client-side
     */
    public HybridPipeline pipeline() {
        EngineHybrid.Decision current = decision;
        if (current.unreachable() && System.nanoTime() - retryAtNanos >= 0) {
            synchronized (this) {
                if (decision.unreachable() && System.nanoTime() - retryAtNanos >= 0) {
                    decide();
                }
            }
            current = decision;
        }
        return current.engine() ? current.pipeline() : null;
    }

    /** @return the decision in effect */
    public EngineHybrid.Decision decision() {
        return decision;
    }

    /**
     * Falls back to client-side fusion after an engine hybrid query failed; detection runs again after
     * {@value #RETRY_SECONDS} seconds.
     *
     * @param cause what failed
     */
    public void engineFailed(Throwable cause) {
        LOG.warning(
                "hybrid recall on the search engine failed, fusing client-side for " + RETRY_SECONDS + " s: " + cause);
        set(new EngineHybrid.Decision(
                EngineHybrid.CLIENT_SIDE, null, "an engine hybrid query failed: " + cause.getMessage(), true));
    }

    private void decide() {
        if (!"elasticsearch".equals(VectorFields.configuredBackend())) {
            set(EngineHybrid.Decision.clientSide("the search backend is embedded Lucene"));
            return;
        }
        HybridPipeline wanted = settings.engineHybridPipeline();
        if (wanted == null) {
            set(EngineHybrid.Decision.clientSide("memory.search.engine-hybrid is off"));
            return;
        }
        set(EngineHybrid.detect(
                System.getProperty("memory.search.uris", "http://127.0.0.1:9200"),
                System.getProperty("memory.search.username"),
                System.getProperty("memory.search.password"),
                wanted,
                TIMEOUT));
    }

    private void set(EngineHybrid.Decision next) {
        retryAtNanos = System.nanoTime() + Duration.ofSeconds(RETRY_SECONDS).toNanos();
        decision = next;
        next.publish();
        LOG.info("hybrid recall: " + next.mode() + " (" + next.detail() + ")");
    }
}
