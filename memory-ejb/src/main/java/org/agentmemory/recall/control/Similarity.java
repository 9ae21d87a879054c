package org.agentmemory.recall.control;

/**
 * Lucene reports a cosine k-NN hit with the score {@code (1 + cosine) / 2} (in [0, 1]); recall reports and
 * thresholds the cosine itself, as the reference does (spec §10.7: {@code score = 1 − cosine_distance}).
 */
public final class Similarity {

    private Similarity() {
    }

    /**
     * @param luceneScore a k-NN score of a cosine vector field
     * @return the cosine similarity in [−1, 1]
     */
    public static double cosineOfLuceneScore(double luceneScore) {
        return Math.max(-1.0, Math.min(1.0, 2.0 * luceneScore - 1.0));
    }
}
