/**
 * Compaction control: the pure calibration math that folds each round's prompt estimate and the
 * provider's reported prompt tokens into the persisted {@link org.agentmemory.api.compaction.CompactionState}
 * (spec §4).
 *
 * <p>Decisions: plain static functions, no container types; the clock is a parameter so results are exact
 * in tests; a degenerate sample returns the very same state instance so callers can skip a write by an
 * identity check; the commit boundary is trusted as monotonic (never compared), as the spec says.
 */
package org.agentmemory.compaction.control;
