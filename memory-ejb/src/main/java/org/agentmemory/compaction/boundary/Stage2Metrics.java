package org.agentmemory.compaction.boundary;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.logging.Logger;
import org.agentmemory.api.compaction.Stage2CompactionNeeded;

/**
 * Counts the {@link Stage2CompactionNeeded} events in the Micrometer counter {@value #COUNTER} (Prometheus:
 * {@code memory_stage2_needed_total}), once per conversation whose Stage-2 flag turned true. Only committed
 * flips count: the observer runs after the transaction of the write succeeded.
 *
 * <p>The registry is the one WildFly's Micrometer subsystem injects into deployments
 * ({@code config/wildfly/configure-server.cli} enables it with a Prometheus registry served on the management
 * interface at {@code /prometheus}). The counter is registered at start-up, so it reads 0 before the first
 * event. On a server whose CDI container has no {@code MeterRegistry} bean the events are only logged.
 */
@ApplicationScoped
public class Stage2Metrics {

    /** The counter's Micrometer name. */
    public static final String COUNTER = "memory.stage2.needed";

    private static final Logger LOG = Logger.getLogger(Stage2Metrics.class.getName());

    @Inject
    Instance<MeterRegistry> registries;

    /** The counter, or {@code null} without a registry. */
    private Counter counter;

    @PostConstruct
    void register() {
        if (!registries.isResolvable()) {
            LOG.info(
                    () -> "No Micrometer MeterRegistry is available: " + COUNTER + " is not exported (Stage-2 requests"
                            + " are still logged). On WildFly, config/wildfly/configure-server.cli enables the Micrometer subsystem.");
            return;
        }
        // registry.counter(name), not Counter.builder(name).register(registry): WildFly 39's per-deployment
        // registry forwards only the former to the server's registries (Prometheus); a builder-registered meter
        // stays in the deployment's local registry and is never exported.
        counter = registries.get().counter(COUNTER);
    }

    /** Creates the bean when the application starts, so the counter exists (at 0) before the first event. */
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        LOG.fine(() -> COUNTER + (counter == null ? " is not exported" : " registered at " + counter.count()));
    }

    /**
     * @param event a conversation's first Stage-2 request, after its write committed
     */
    void onStage2Needed(@Observes(during = TransactionPhase.AFTER_SUCCESS) Stage2CompactionNeeded event) {
        if (counter != null) {
            counter.increment();
        }
        LOG.info(() -> "Stage 2 compaction needed for conversation " + event.conversationId() + " of tenant '"
                + event.tenantId() + "': history estimate " + event.historyEstimate() + " tokens, available "
                + event.available() + ", " + event.droppedTurns() + " turns dropped");
    }
}
