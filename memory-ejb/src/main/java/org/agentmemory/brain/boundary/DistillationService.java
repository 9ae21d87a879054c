package org.agentmemory.brain.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.logging.Logger;
import org.agentmemory.api.config.DreamSettings;
import org.agentmemory.brain.control.DistillParser;
import org.agentmemory.brain.control.DistillPrompt;
import org.agentmemory.brain.control.DreamCycle;
import org.agentmemory.brain.control.DreamEpisode;
import org.agentmemory.platform.llm.ChatEndpoint;
import org.agentmemory.platform.llm.UnreadableAnswerException;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * Distills a group of episodes with an OpenAI-compatible chat model (spec §12.2 step 4): one call per group
 * ({@link DistillPrompt}, max_tokens 512, temperature 0.3, JSON mode), the answer read by {@link DistillParser}, with
 * the same client and the same fault-tolerance policy as reflection ({@code episodic.control.ReflectionService}):
 * timeout 20,000 ms per attempt, one retry after 200 ms unless the answer was unreadable, a circuit breaker over 8
 * attempts at 75 % failures open for 10 s, and the heuristic distiller as the fallback. The cycle therefore finishes
 * whatever the model does; the report counts the groups the model distilled.
 *
 * <p>Configuration: {@value DreamSettings#MODEL_URL} (unset = heuristic only), {@value DreamSettings#MODEL},
 * {@value DreamSettings#API_KEY}, {@value DreamSettings#READ_TIMEOUT_MS}. A CDI bean because Fault Tolerance
 * interceptors belong on CDI beans.
 */
@ApplicationScoped
public class DistillationService {

    private static final Logger LOG = Logger.getLogger(DistillationService.class.getName());

    @Inject
    Config config;

    private ChatEndpoint endpoint;

    @PostConstruct
    void read() {
        endpoint = new ChatEndpoint(
                config,
                DreamSettings.MODEL_URL,
                DreamSettings.MODEL,
                DreamSettings.Defaults.MODEL,
                DreamSettings.API_KEY,
                DreamSettings.READ_TIMEOUT_MS,
                DreamSettings.Defaults.READ_TIMEOUT_MS);
        if (endpoint.configured()) {
            LOG.info(() -> "Dream distillation uses the chat model " + endpoint.describe() + " (heuristic on failure)");
        }
    }

    /**
     * @param group a group of episodes, oldest first
     * @return the model's knowledge, or the heuristic's on any failure
     */
    @Timeout(value = 20_000, unit = ChronoUnit.MILLIS)
    @Retry(maxRetries = 1, delay = 200, jitter = 0, abortOn = UnreadableAnswerException.class)
    @CircuitBreaker(
            requestVolumeThreshold = 8,
            failureRatio = 0.75,
            delay = 10_000,
            successThreshold = 1,
            skipOn = UnreadableAnswerException.class)
    @Fallback(fallbackMethod = "heuristic")
    public DreamCycle.Distillation distill(List<DreamEpisode> group) {
        if (!endpoint.configured()) {
            return DreamCycle.heuristic(group);
        }
        String content = endpoint.complete(DistillPrompt.SYSTEM, DistillPrompt.build(group));
        return DreamCycle.byModel(group, DistillParser.parse(content));
    }

    /**
     * The fallback of {@link #distill}: the heuristic distiller.
     *
     * @param group the group
     * @return the heuristic knowledge
     */
    public DreamCycle.Distillation heuristic(List<DreamEpisode> group) {
        return DreamCycle.heuristic(group);
    }
}
