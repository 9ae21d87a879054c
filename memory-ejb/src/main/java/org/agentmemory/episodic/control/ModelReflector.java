package org.agentmemory.episodic.control;

import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.api.episodic.ReflectionResult;

/**
 * Reflection by a chat model (spec §10.4): builds the {@link ReflectionPrompt}, calls the
 * {@link ChatCompletion}, reads the answer with the {@link ReflectionParser} ladder and reports
 * {@link LessonSource#MODEL}. On ANY failure (the call throws: timeout, 5xx, refused connection; or the
 * answer is empty, garbage or lacks a field) it logs one WARNING and returns the {@link HeuristicReflector}'s
 * result with {@link LessonSource#HEURISTIC}; it never throws to its caller (the reference's
 * {@code fallback_to_heuristic=True}, which is its default).
 *
 * <p>Thread-safe when the chat completion is. It does no timing itself: bound the call inside the
 * {@link ChatCompletion} (HTTP client timeouts) or with MicroProfile Fault Tolerance on the CDI bean that
 * owns the transport.
 */
public final class ModelReflector implements Reflector {

    private static final Logger LOG = Logger.getLogger(ModelReflector.class.getName());

    private final ChatCompletion chat;
    private final HeuristicReflector fallback = new HeuristicReflector();

    /**
     * @param chat the model call; never {@code null}
     */
    public ModelReflector(ChatCompletion chat) {
        this.chat = Objects.requireNonNull(chat, "chat");
    }

    @Override
    public ReflectionOutcome reflect(EpisodeInput input) {
        try {
            String content = chat.complete(ReflectionPrompt.build(input));
            ReflectionResult result = ReflectionParser.parse(content);
            return new ReflectionOutcome(result, LessonSource.MODEL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.log(Level.WARNING, "Reflection by the model was interrupted; using the heuristic reflection", e);
        } catch (Exception e) {
            LOG.log(Level.WARNING, "Reflection by the model failed (" + e + "); using the heuristic reflection");
        }
        return fallback.reflect(input);
    }
}
