package org.agentmemory.platform.embedding;

import java.util.List;

/** Small vector arithmetic on float vectors, accumulated in double. */
public final class Vectors {

    private Vectors() {}

    /**
     * Cosine similarity, as the reference computes it (spec §9.5): 0 when the lengths differ or either norm
     * is zero.
     *
     * @param a a vector
     * @param b a vector
     * @return the cosine in [−1, 1]
     */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            return 0.0;
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0.0 : dot / (Math.sqrt(na) * Math.sqrt(nb));
    }

    /**
     * @param vector a vector
     * @return its Euclidean length
     */
    public static double norm(float[] vector) {
        double sum = 0;
        for (float v : vector) {
            sum += (double) v * v;
        }
        return Math.sqrt(sum);
    }

    /**
     * @param vector a vector
     * @return a new vector of unit length in the same direction (all zeros stay zero)
     */
    public static float[] normalize(float[] vector) {
        double norm = norm(vector);
        float[] out = new float[vector.length];
        if (norm == 0) {
            return out;
        }
        for (int i = 0; i < vector.length; i++) {
            out[i] = (float) (vector[i] / norm);
        }
        return out;
    }

    /**
     * @param vectors equal-length vectors, at least one
     * @param weights one positive weight per vector
     * @return the weighted mean, re-normalised to unit length
     */
    public static float[] weightedMeanNormalized(List<float[]> vectors, List<Integer> weights) {
        int dimension = vectors.get(0).length;
        double[] sum = new double[dimension];
        for (int v = 0; v < vectors.size(); v++) {
            float[] vector = vectors.get(v);
            double weight = weights.get(v);
            for (int i = 0; i < dimension; i++) {
                sum[i] += vector[i] * weight;
            }
        }
        float[] mean = new float[dimension];
        for (int i = 0; i < dimension; i++) {
            mean[i] = (float) sum[i];
        }
        return normalize(mean);
    }
}
