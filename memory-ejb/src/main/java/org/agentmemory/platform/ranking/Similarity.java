package org.agentmemory.platform.ranking;

/**
 * Lucene reports a cosine k-NN hit with the score {@code (1 + cosine) / 2} (in [0, 1]); recall reports and
 * thresholds the cosine itself, as the reference does (spec §10.7: {@code score = 1 − cosine_distance}).
 */
public final class Similarity {

    /**
     * Least k of every k-NN query. Lucene's HNSW search explores about k candidates per segment, so a small k
     * (top 5 or 10) misses near neighbours: on LoCoMo, asking k-NN for 10 gave vector R@10 0.555 where asking for
     * 50 and keeping the first 10 gave 0.607 (100: 0.606, at twice the cost per segment). Legs ask for
     * {@code max(k, this)} and keep their first k.
     */
    public static final int MIN_KNN_CANDIDATES = 50;

    /**
     * @param k the hits a leg needs
     * @return how many nearest neighbours to ask the k-NN query for
     */
    public static int knnCandidates(int k) {
        return Math.max(k, MIN_KNN_CANDIDATES);
    }

    private Similarity() {}

    /**
     * @param luceneScore a k-NN score of a cosine vector field
     * @return the cosine similarity in [−1, 1]
     */
    public static double cosineOfLuceneScore(double luceneScore) {
        return Math.max(-1.0, Math.min(1.0, 2.0 * luceneScore - 1.0));
    }
}
