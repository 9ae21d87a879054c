/**
 * Ranking shared by the recall legs of conversations and episodes (spec §10.6): the scored ids each leg returns,
 * the similarity scales of the backends, and the fusion of legs into one hybrid list.
 *
 * <p>Decisions: reciprocal rank fusion (Σ 1/(k + rank)) is the default because it needs no score calibration and
 * matches OpenSearch's RRF ranker; weighted score fusion (min-max per leg, configurable weights) is the alternative
 * when tuned weights should blend score magnitudes. Leg names are free strings; by convention the
 * {@code RecallMode} values {@code vector} and {@code full_text}. Ties are broken by the best rank in any leg and
 * then by id, so the same inputs always give the same order.
 */
@Pure
package org.agentmemory.platform.ranking;

import org.agentmemory.platform.Pure;
