package org.agentmemory.compaction.boundary;

import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import org.agentmemory.api.compaction.Stage2CompactionNeeded;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts the {@link Stage2CompactionNeeded} events in the Micrometer counter {@value #COUNTER} (Prometheus:
 * {@code memory_stage2_needed_total}), once per conversation whose Stage-2 flag turned true. Only committed
 * flips count: the observer runs after the transaction of the write succeeded.
 *
 * <p>The registry is the one WildFly's Micrometer subsystem injects into deployments
 * ({@code config/wildfly/configure-server.cli} enables it with a Prometheus registry served on the management
 * interface at {@code /prometheus}). The counter is registered at start-up, so it reads 0 before the first
 * event. On a server without Micrometer this bean cannot be created and the event is simply not counted.
 */
@ApplicationScoped
public class Stage2Metrics {

    /** The counter's Micrometer name. */
    public static final String COUNTER = "memory.stage2.needed";

    private static final Logger LOG = Logger.getLogger(Stage2Metrics.class.getName());

    @Inject
    MeterRegistry registry;

    private Counter counter;

    @PostConstruct
    void register() {
        // registry.counter(name), not Counter.builder(name).register(registry): WildFly 39's per-deployment
        // registry forwards only the former to the server's registries (Prometheus); a builder-registered meter
        // stays in the deployment's local registry and is never exported.
        counter = registry.counter(COUNTER);
    }

    /** Creates the bean when the application starts, so the counter exists (at 0) before the first event. */
    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        LOG.fine(() -> COUNTER + " registered at " + counter.count());
    }

    /**
     * @param event a conversation's first Stage-2 request, after its write committed
     */
    void onStage2Needed(@Observes(during = TransactionPhase.AFTER_SUCCESS) Stage2CompactionNeeded event) {
        counter.increment();
        LOG.info(() -> "Stage 2 compaction needed for conversation " + event.conversationId() + " of tenant '"
                + event.tenantId() + "': history estimate " + event.historyEstimate() + " tokens, available "
                + event.available() + ", " + event.droppedTurns() + " turns dropped");
    }
}
