package org.agentmemory.episodic.control;

import org.agentmemory.api.episodic.Episode;

/**
 * The automatic importance as a scorer (spec §10.2, {@code episodic/scoring.py}):
 * {@link Importance#autoImportance} / 10. Applied through {@link Importance#applyScorer} it gives back
 * the automatic importance exactly.
 */
public final class HeuristicScorer implements ImportanceScorer {

    @Override
    public double score(Episode episode) {
        return Importance.autoImportance(episode.outcome(), episode.errorType()) / 10.0;
    }
}
