package org.agentmemory.compaction.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.agentmemory.api.compaction.SummaryMethod;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.control.ExtractiveSummarizer;
import org.agentmemory.compaction.control.Summarized;
import org.agentmemory.compaction.control.SummaryPrompt;
import org.agentmemory.compaction.control.SummaryText;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.llm.UnreadableAnswerException;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * One call that extends a Stage 2 summary with newly dropped turns (issue 35 item 4; {@link Stage2Summarizer} splits
 * many turns into calls): by the OpenAI-compatible chat model of
 * {@code memory.stage2.model-url} ({@link SummaryPrompt}: the current summary and only the new turns in, JSON
 * {@code {"summary": …}} out, max_tokens 512, temperature 0.3), or by the {@link ExtractiveSummarizer} when no model
 * is configured or the call fails. Either result is bounded to {@code memory.stage2.max-summary-tokens}.
 *
 * <p>Policy of {@link #summarize}, the same client and fault-tolerance policy as reflection
 * ({@code episodic.control.ReflectionService}; standard MicroProfile keys override each value, e.g.
 * {@code org.agentmemory.compaction.boundary.SummaryModel/summarize/Timeout/value=5000}): timeout 20,000 ms per
 * attempt; one retry after 200 ms unless the answer was unreadable; a circuit breaker over the last 8 attempts that
 * opens at 75 % failures for 10 s; the extractive summarizer as the fallback on any failure, so the caller never sees
 * an error. A CDI bean rather than an EJB: Fault Tolerance interceptors belong on CDI beans.
 */
@ApplicationScoped
public class SummaryModel {

    @Inject
    Stage2Config stage2;

    @Inject
    Settings settings;

    /**
     * @param previous the summary so far, or {@code null} for a new one
     * @param turns    the newly dropped turns of one call ({@link SummaryPrompt#calls}), oldest first
     * @return the extended summary by the model, or by the extractive summarizer on any failure
     */
    @Timeout(value = 20_000, unit = ChronoUnit.MILLIS)
    @Retry(maxRetries = 1, delay = 200, jitter = 0, abortOn = UnreadableAnswerException.class)
    @CircuitBreaker(
            requestVolumeThreshold = 8,
            failureRatio = 0.75,
            delay = 10_000,
            successThreshold = 1,
            skipOn = UnreadableAnswerException.class)
    @Fallback(fallbackMethod = "extractive")
    public Summarized summarize(String previous, List<TurnRecord> turns) {
        if (!stage2.endpoint().configured()) {
            return extractive(previous, turns);
        }
        String text = SummaryPrompt.parse(
                stage2.endpoint().complete(SummaryPrompt.SYSTEM, SummaryPrompt.build(previous, turns)));
        return new Summarized(
                SummaryText.bound(SummaryText.lines(text), stage2.maxSummaryTokens(), settings.tokenCounter()),
                SummaryMethod.MODEL);
    }

    /**
     * The fallback of {@link #summarize}: the extractive summarizer.
     *
     * @param previous the summary so far, or {@code null}
     * @param turns    the newly dropped turns, oldest first
     * @return the extended summary
     */
    public Summarized extractive(String previous, List<TurnRecord> turns) {
        return new Summarized(
                new ExtractiveSummarizer(settings.tokenCounter()).extend(previous, turns, stage2.maxSummaryTokens()),
                SummaryMethod.EXTRACTIVE);
    }
}
