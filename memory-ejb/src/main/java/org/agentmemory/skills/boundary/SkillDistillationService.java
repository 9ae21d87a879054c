package org.agentmemory.skills.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.temporal.ChronoUnit;
import java.util.logging.Logger;
import org.agentmemory.api.config.DreamSettings;
import org.agentmemory.platform.llm.ChatEndpoint;
import org.agentmemory.platform.llm.UnreadableAnswerException;
import org.agentmemory.skills.control.SkillExtraction;
import org.agentmemory.skills.control.SkillPrompt;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * Writes an extracted skill's description and instructions with the dream cycle's chat model when one is configured
 * ({@value DreamSettings#MODEL_URL}, the same endpoint, model and key as the brain's distillation): one call per
 * skill ({@link SkillPrompt}, lessons only), with the brain distiller's fault-tolerance policy: timeout 20,000 ms per
 * attempt, one retry after 200 ms unless the answer was unreadable, a circuit breaker over 8 attempts at 75 % failures
 * open for 10 s, and the heuristic skill as the fallback. Extraction therefore finishes whatever the model does. A CDI
 * bean because Fault Tolerance interceptors belong on CDI beans.
 */
@ApplicationScoped
public class SkillDistillationService {

    private static final Logger LOG = Logger.getLogger(SkillDistillationService.class.getName());

    /**
     * A skill as written.
     *
     * @param skill   the skill
     * @param byModel whether the model wrote its description and instructions
     */
    public record Written(SkillExtraction.Extracted skill, boolean byModel) {}

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
            LOG.info(() -> "Skill extraction uses the chat model " + endpoint.describe() + " (heuristic on failure)");
        }
    }

    /**
     * @param skill the heuristic's skill of a cluster
     * @return the model's version of it, or the heuristic's when no model is configured or on any failure
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
    public Written write(SkillExtraction.Extracted skill) {
        if (!endpoint.configured()) {
            return new Written(skill, false);
        }
        String content = endpoint.complete(SkillPrompt.SYSTEM, SkillPrompt.build(skill));
        return new Written(SkillPrompt.read(skill, content), true);
    }

    /**
     * The fallback of {@link #write}: the heuristic skill.
     *
     * @param skill the heuristic's skill
     * @return it, not by a model
     */
    public Written heuristic(SkillExtraction.Extracted skill) {
        return new Written(skill, false);
    }
}
