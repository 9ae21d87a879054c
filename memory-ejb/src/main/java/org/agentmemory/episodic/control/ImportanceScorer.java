package org.agentmemory.episodic.control;

import org.agentmemory.api.episodic.Episode;

/**
 * A pluggable importance strategy (spec §10.2): scores a fully built episode in [0, 1]. When one is
 * configured, the episode's importance becomes {@link Importance#applyScorer(double)} of the score,
 * overriding even an explicit importance (the reference's behaviour); a scorer that throws leaves the
 * importance unchanged ({@link EpisodeAssembler}).
 */
@FunctionalInterface
public interface ImportanceScorer {

    /**
     * @param episode the episode, with reflection applied
     * @return a score, nominally in [0, 1]
     */
    double score(Episode episode);
}
