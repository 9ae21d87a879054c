package org.agentmemory.context.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.agentmemory.compaction.boundary.Stage2Config;
import org.agentmemory.context.control.ConversationRendering;
import org.agentmemory.platform.config.Settings;

/**
 * The context component's configuration, built once per deployment from the settings and checked when the
 * application starts, so that a bad {@code memory.compaction.*} value fails the deployment with a message naming the
 * key, as every other setting does ({@link Settings}); whether Stage 2 summaries are shown comes from
 * {@link Stage2Config}.
 */
@ApplicationScoped
public class ContextConfiguration {

    @Inject
    Settings settings;

    @Inject
    Stage2Config stage2;

    private ConversationRendering rendering;

    @PostConstruct
    void build() {
        rendering = ConversationRendering.configured(
                settings.compactionModelWindows(),
                settings.compactionToolPolicies(),
                settings.tokenCounter(),
                settings.offloadThresholdTokens(),
                settings.compactionEnabled(),
                stage2.enabled());
    }

    /** Builds (and so checks) the configuration when the application starts, not at the first context call. */
    void atStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        rendering();
    }

    /** @return the renderer of conversations for a model's window */
    public ConversationRendering rendering() {
        return rendering;
    }
}
