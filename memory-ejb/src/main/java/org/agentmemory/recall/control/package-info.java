/**
 * Recall fusion (spec §10.6): combining the ranked hits of a vector leg and a full-text leg into one
 * hybrid result list (pure, container-free, deterministic); and the work on the message and episode indexes that
 * runs on a caller's entity manager: building and embedding messages ({@code MessageIndex}), the search legs
 * ({@code MessageSearch}) and the comparison of the indexes with their tables after a crash
 * ({@code IndexReconciliation}, with the pure {@code IndexDiff} and the {@code IndexStateMarker} file).
 *
 * <p>Decisions: reciprocal rank fusion (Σ 1/(k + rank), k = 60) is the default for hybrid recall because
 * it needs no score calibration and matches OpenSearch's RRF ranker; weighted score fusion (min-max per leg,
 * configurable weights) is the alternative when tuned weights should blend score magnitudes. Leg names are
 * free strings; by convention the {@code RecallMode} values {@code vector} and {@code full_text}. Ties are
 * broken by the best rank in any leg and then by id, so the same inputs always give the same order.
 */
package org.agentmemory.recall.control;
