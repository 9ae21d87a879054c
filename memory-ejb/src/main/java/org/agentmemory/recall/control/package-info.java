/**
 * Recall fusion (spec §10.6): combining the ranked hits of a vector leg and a full-text leg into one
 * hybrid result list. Pure, container-free, deterministic.
 *
 * <p>Decisions: reciprocal rank fusion (Σ 1/(k + rank), k = 60) is the default for hybrid recall because
 * it needs no score calibration and matches OpenSearch's RRF ranker; weighted score fusion (min-max per leg,
 * configurable weights) is the alternative when tuned weights should blend score magnitudes. Leg names are
 * free strings; by convention the {@code RecallMode} values {@code vector} and {@code full_text}. Ties are
 * broken by the best rank in any leg and then by id, so the same inputs always give the same order.
 */
package org.agentmemory.recall.control;
