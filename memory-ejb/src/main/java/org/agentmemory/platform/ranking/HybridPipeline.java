package org.agentmemory.platform.ranking;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The OpenSearch search pipeline through which a {@link HybridQuery} fuses its sub-queries on the engine (issue 36
 * item 4). Two techniques, as {@code memory.recall.fusion} names them:
 * <ul>
 * <li>{@code rrf}: the {@code score-ranker-processor} (OpenSearch 2.19) combining by reciprocal rank fusion,
 * Σ 1/(rank constant + rank), the rank constant in {@code combination.parameters.rank_constant}: the only place
 * neural-search 2.19 reads it (elsewhere it is ignored and 60 is used);</li>
 * <li>{@code weighted}: the {@code normalization-processor}, each sub-query's scores min-max normalised, combined
 * by an arithmetic mean weighted [full-text, vector] (the order of {@link HybridQuery}'s sub-queries), the weights
 * scaled to sum 1 as OpenSearch requires.</li>
 * </ul>
 * The pipeline's {@link #name()} carries a digest of its body, so servers configured differently (during a rolling
 * change of settings) each use their own pipeline instead of overwriting one another's.
 *
 * <p>Immutable; no container types.
 *
 * @param technique      {@code rrf} or {@code weighted}
 * @param rankConstant   rank constant of {@code rrf}, ≥ 1 (unused by {@code weighted})
 * @param fullTextWeight weight of the full-text sub-query in {@code weighted}, in [0, 1]
 * @param vectorWeight   weight of the vector sub-query in {@code weighted}, in [0, 1]; the two sum to 1
 */
public record HybridPipeline(String technique, int rankConstant, double fullTextWeight, double vectorWeight) {

    /** Technique name of reciprocal rank fusion. */
    public static final String RRF = "rrf";
    /** Technique name of weighted, min-max normalised score fusion. */
    public static final String WEIGHTED = "weighted";
    /** Prefix of every pipeline the service creates. */
    public static final String NAME_PREFIX = "agent-memory-hybrid-";

    /**
     * @throws IllegalArgumentException when the technique is unknown or a number is out of range
     */
    public HybridPipeline {
        if (!RRF.equals(technique) && !WEIGHTED.equals(technique)) {
            throw new IllegalArgumentException(
                    "hybrid technique is '" + technique + "'; it must be " + RRF + " or " + WEIGHTED);
        }
        if (rankConstant < 1) {
            throw new IllegalArgumentException("rank constant is " + rankConstant + "; it must be ≥ 1");
        }
        if (!(fullTextWeight >= 0 && fullTextWeight <= 1 && vectorWeight >= 0 && vectorWeight <= 1)
                || Math.abs(fullTextWeight + vectorWeight - 1) > 1e-9) {
            throw new IllegalArgumentException("weights are " + fullTextWeight + " (full text) and " + vectorWeight
                    + " (vector); each must be in [0, 1] and together 1");
        }
    }

    /**
     * @param rankConstant the rank constant k of Σ 1/(k + rank), ≥ 1
     * @return reciprocal rank fusion on the engine
     */
    public static HybridPipeline rrf(int rankConstant) {
        return new HybridPipeline(RRF, rankConstant, 0.5, 0.5);
    }

    /**
     * @param fullText weight of the full-text leg, finite, ≥ 0
     * @param vector   weight of the vector leg, finite, ≥ 0
     * @return weighted fusion with the weights scaled to sum 1 (both 0: equal weights)
     * @throws IllegalArgumentException when a weight is negative or not finite
     */
    public static HybridPipeline weighted(double fullText, double vector) {
        if (!(fullText >= 0) || !(vector >= 0) || Double.isInfinite(fullText) || Double.isInfinite(vector)) {
            throw new IllegalArgumentException(
                    "weights are " + fullText + " and " + vector + "; each must be a finite number ≥ 0");
        }
        double sum = fullText + vector;
        if (sum == 0) {
            return new HybridPipeline(WEIGHTED, 60, 0.5, 0.5);
        }
        double text = Math.round(fullText / sum * 10_000) / 10_000.0; // as the body writes it
        return new HybridPipeline(WEIGHTED, 60, text, 1 - text);
    }

    /**
     * @return the body of {@code PUT /_search/pipeline/<name>}: one phase results processor
     */
    public String body() {
        String processor;
        if (RRF.equals(technique)) {
            // neural-search 2.19 reads the rank constant from combination.parameters only; a rank_constant
            // directly under combination (as the 2.19 documentation shows it) is ignored without an error and
            // the processor fuses with 60 (opensearch-project/neural-search#1370).
            processor = "{\"score-ranker-processor\":{\"combination\":{\"technique\":\"rrf\","
                    + "\"parameters\":{\"rank_constant\":" + rankConstant + "}}}}";
        } else {
            processor = "{\"normalization-processor\":{\"normalization\":{\"technique\":\"min_max\"},"
                    + "\"combination\":{\"technique\":\"arithmetic_mean\",\"parameters\":{\"weights\":["
                    + number(fullTextWeight) + "," + number(vectorWeight) + "]}}}}";
        }
        return "{\"description\":\"Agent Memory hybrid recall (" + technique + "), created by the service\","
                + "\"phase_results_processors\":[" + processor + "]}";
    }

    /**
     * @return the pipeline's id: {@value #NAME_PREFIX}, the technique, and the first 8 hex digits of the SHA-256
     *         of {@link #body()}, e.g. {@code agent-memory-hybrid-rrf-1a2b3c4d}
     */
    public String name() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body().getBytes(StandardCharsets.UTF_8));
            return NAME_PREFIX + technique + "-" + HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * @return how readiness shows the technique, e.g. {@code rrf (k=10)} or {@code weighted (0.4 text, 0.6 vector)}
     */
    public String describe() {
        return RRF.equals(technique)
                ? "rrf (k=" + rankConstant + ")"
                : "weighted (" + number(fullTextWeight) + " text, " + number(vectorWeight) + " vector)";
    }

    private static String number(double value) {
        // Enough digits for weights; no exponent (4 decimals round 1/3 to 0.3333, which OpenSearch accepts as
        // summing to 1 within its tolerance).
        return String.format(Locale.ROOT, "%.4f", value).replaceAll("0+$", "").replaceAll("\\.$", ".0");
    }
}
