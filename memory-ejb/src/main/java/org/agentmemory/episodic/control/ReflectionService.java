package org.agentmemory.episodic.control;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.agentmemory.api.config.MemorySettings;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.LessonSource;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

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
    private volatile ChatCompletionsApi client;
    private String model;
    private String authorization;
    private URI url;
    private long readTimeoutMs;

    @PostConstruct
    void read() {
        url = config.getOptionalValue(MemorySettings.REFLECTION_URL, String.class)
                .filter(s -> !s.isBlank())
                .map(s -> URI.create(s.strip()))
                .orElse(null);
        model = config.getOptionalValue(MemorySettings.REFLECTION_MODEL, String.class)
                .orElse(MemorySettings.Defaults.REFLECTION_MODEL);
        authorization = config.getOptionalValue(MemorySettings.REFLECTION_API_KEY, String.class)
                .filter(s -> !s.isBlank())
                .map(key -> "Bearer " + key.strip())
                .orElse(null);
        readTimeoutMs = config.getOptionalValue(MemorySettings.REFLECTION_READ_TIMEOUT_MS, Long.class)
                .orElse(MemorySettings.Defaults.REFLECTION_READ_TIMEOUT_MS);
        if (readTimeoutMs < 1) {
            throw new IllegalStateException(MemorySettings.REFLECTION_READ_TIMEOUT_MS + " is " + readTimeoutMs
                    + "; it must be ≥ 1 (milliseconds). Default: "
                    + MemorySettings.Defaults.REFLECTION_READ_TIMEOUT_MS);
        }
        if (url != null) {
            LOG.info(() -> "Reflection uses the chat model " + model + " at " + url + " (heuristic on failure)");
        }
    }

    /** @return whether a model endpoint is configured */
    public boolean modelConfigured() {
        return url != null;
    }

    /**
     * Asks the model; see the class comment for the policy.
     *
     * @param input the episode (situation, action, outcome, error)
     * @return the model's reflection ({@link LessonSource#MODEL}), or the heuristic one on any failure
     */
    @Timeout(value = 20_000, unit = ChronoUnit.MILLIS)
    @Retry(maxRetries = 1, delay = 200, jitter = 0, abortOn = ReflectionParseException.class)
    @CircuitBreaker(
            requestVolumeThreshold = 8,
            failureRatio = 0.75,
            delay = 10_000,
            successThreshold = 1,
            skipOn = ReflectionParseException.class)
    @Fallback(fallbackMethod = "heuristic")
    public ReflectionOutcome reflect(EpisodeInput input) {
        if (url == null) {
            return heuristic.reflect(input);
        }
        String body = ChatCompletionsJson.request(model, ReflectionPrompt.SYSTEM, ReflectionPrompt.build(input));
        String content = ChatCompletionsJson.content(client().complete(authorization, body));
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

    private ChatCompletionsApi client() {
        ChatCompletionsApi c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = RestClientBuilder.newBuilder()
                            .baseUri(url)
                            .connectTimeout(Math.min(readTimeoutMs, 5_000), TimeUnit.MILLISECONDS)
                            .readTimeout(readTimeoutMs, TimeUnit.MILLISECONDS)
                            .build(ChatCompletionsApi.class);
                }
                c = client;
            }
        }
        return c;
    }
}
