package org.agentmemory.compaction.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.logging.Logger;
import org.agentmemory.api.config.Stage2Settings;
import org.agentmemory.platform.llm.ChatEndpoint;
import org.eclipse.microprofile.config.Config;

/**
 * Stage 2's configuration ({@link Stage2Settings}), read and checked when the application starts: a value out of range
 * stops the deployment with a message naming the key.
 */
@ApplicationScoped
public class Stage2Config {

    private static final Logger LOG = Logger.getLogger(Stage2Config.class.getName());

    /** Bounds of {@value Stage2Settings#MAX_SUMMARY_TOKENS}. */
    static final int MIN_SUMMARY_TOKENS = 100;

    static final int MAX_SUMMARY_TOKENS = 100_000;

    @Inject
    Config config;

    private boolean enabled;
    private int maxSummaryTokens;
    private ChatEndpoint endpoint;

    @PostConstruct
    void read() {
        enabled =
                config.getOptionalValue(Stage2Settings.ENABLED, Boolean.class).orElse(Stage2Settings.Defaults.ENABLED);
        maxSummaryTokens = config.getOptionalValue(Stage2Settings.MAX_SUMMARY_TOKENS, Integer.class)
                .orElse(Stage2Settings.Defaults.MAX_SUMMARY_TOKENS);
        if (maxSummaryTokens < MIN_SUMMARY_TOKENS || maxSummaryTokens > MAX_SUMMARY_TOKENS) {
            throw new IllegalStateException(Stage2Settings.MAX_SUMMARY_TOKENS + " is " + maxSummaryTokens
                    + "; it must be between " + MIN_SUMMARY_TOKENS + " and " + MAX_SUMMARY_TOKENS + " (tokens)."
                    + " Default: " + Stage2Settings.Defaults.MAX_SUMMARY_TOKENS);
        }
        endpoint = new ChatEndpoint(
                config,
                Stage2Settings.MODEL_URL,
                Stage2Settings.MODEL,
                Stage2Settings.Defaults.MODEL,
                Stage2Settings.API_KEY,
                Stage2Settings.READ_TIMEOUT_MS,
                Stage2Settings.Defaults.READ_TIMEOUT_MS);
        if (enabled && endpoint.configured()) {
            LOG.info(() -> "Stage 2 summaries use the chat model " + endpoint.describe() + " (extractive on failure)");
        }
    }

    /** Reads (and so checks) the configuration when the application starts, not at the first summary. */
    void atStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        LOG.fine(() -> "Stage 2 " + (enabled ? "enabled" : "disabled (" + Stage2Settings.ENABLED + "=false)"));
    }

    /** @return {@value Stage2Settings#ENABLED} */
    public boolean enabled() {
        return enabled;
    }

    /** @return {@value Stage2Settings#MAX_SUMMARY_TOKENS}, tokens */
    public int maxSummaryTokens() {
        return maxSummaryTokens;
    }

    /** @return the summary model's endpoint ({@link ChatEndpoint#configured()} false without a URL) */
    ChatEndpoint endpoint() {
        return endpoint;
    }
}
