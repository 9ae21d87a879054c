package org.agentmemory.episodic.control;

import org.agentmemory.api.episodic.EpisodeInput;

/**
 * Reflects on an episode before it is stored (spec §10.4): produces a reflection, a lesson and a suggested
 * action. Implementations never throw for a bad or unavailable model: they fall back to the heuristic and
 * say so in {@link ReflectionOutcome#source()}.
 *
 * <p>Implementations: {@link HeuristicReflector} (pure, instant) and {@link ModelReflector} (a chat
 * completion through any transport, falling back to the heuristic).
 */
@FunctionalInterface
public interface Reflector {

    /**
     * @param input the episode as recorded (situation, action, outcome, error message are used)
     * @return the reflection and its source; never {@code null}
     */
    ReflectionOutcome reflect(EpisodeInput input);
}
