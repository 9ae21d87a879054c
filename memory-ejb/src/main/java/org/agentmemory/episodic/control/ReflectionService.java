package org.agentmemory.episodic.control;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.temporal.ChronoUnit;
import java.util.logging.Logger;
import org.agentmemory.api.config.MemorySettings;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.platform.llm.ChatEndpoint;
import org.agentmemory.platform.llm.UnreadableAnswerException;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * Reflection by an OpenAI-compatible chat model (spec §10.4), guarded by MicroProfile Fault Tolerance, with the
 * heuristic table as the fallback. Configuration ({@link MemorySettings}): {@value MemorySettings#REFLECTION_URL}
 * (the API root; unset = heuristic only, no model call), {@value MemorySettings#REFLECTION_MODEL},
 * {@value MemorySettings#REFLECTION_API_KEY} (sent as {@code Authorization: Bearer}; also from the environment,
 * {@code MEMORY_REFLECTION_API_KEY}), {@value MemorySettings#REFLECTION_READ_TIMEOUT_MS}.
 *
 * <p>Policy of {@link #reflect} (standard MicroProfile keys override each value, e.g.
 * {@code org.agentmemory.episodic.control.ReflectionService/reflect/Timeout/value=5000}):
 * <ul>
 * <li>Timeout 20,000 ms per attempt (the HTTP read timeout bounds the blocking read the same way);</li>
 * <li>Retry: one more attempt after 200 ms, except when the answer was unreadable (a model that answered
 * garbage is not asked twice);</li>
 * <li>Circuit breaker: over the last 8 attempts, 75 % failures open it for 10 s (then one trial call); while
 * open no call is made;</li>
 * <li>Fallback: {@link #heuristic} on any failure (timeout, HTTP error, refused connection, unreadable answer,
 * open circuit). The caller never sees an error.</li>
 * </ul>
 * An unreadable answer does not count as a circuit failure: the endpoint is up, only this answer was bad.
 *
 * <p>A CDI bean rather than an EJB: Fault Tolerance interceptors belong on CDI beans.
 */
@ApplicationScoped
public class ReflectionService {

    private static final Logger LOG = Logger.getLogger(ReflectionService.class.getName());

    @Inject
    Config config;

    private final HeuristicReflector heuristic = new HeuristicReflector();
    private ChatEndpoint endpoint;

    @PostConstruct
    void read() {
        endpoint = new ChatEndpoint(
                config,
                MemorySettings.REFLECTION_URL,
                MemorySettings.REFLECTION_MODEL,
                MemorySettings.Defaults.REFLECTION_MODEL,
                MemorySettings.REFLECTION_API_KEY,
                MemorySettings.REFLECTION_READ_TIMEOUT_MS,
                MemorySettings.Defaults.REFLECTION_READ_TIMEOUT_MS);
        if (endpoint.configured()) {
            LOG.info(() -> "Reflection uses the chat model " + endpoint.describe() + " (heuristic on failure)");
        }
    }

    /** @return whether a model endpoint is configured */
    public boolean modelConfigured() {
        return endpoint.configured();
    }

    /**
     * Asks the model; see the class comment for the policy.
     *
     * @param input the episode (situation, action, outcome, error)
     * @return the model's reflection ({@link LessonSource#MODEL}), or the heuristic one on any failure
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
    public ReflectionOutcome reflect(EpisodeInput input) {
        if (!endpoint.configured()) {
            return heuristic.reflect(input);
        }
        String content = endpoint.complete(ReflectionPrompt.SYSTEM, ReflectionPrompt.build(input));
        return new ReflectionOutcome(ReflectionParser.parse(content), LessonSource.MODEL);
    }

    /**
     * The fallback of {@link #reflect}: the heuristic table (spec §10.4).
     *
     * @param input the episode
     * @return the heuristic reflection
     */
    public ReflectionOutcome heuristic(EpisodeInput input) {
        return heuristic.reflect(input);
    }
}
