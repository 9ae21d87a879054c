/**
 * Compaction: the calibration math of spec §4 and Stage 1 read-time compaction and rendering (spec §5.2,
 * §8): which stored turns a model sees, in which form (RAW, PRUNED, or dropped), and how they become
 * alternating provider-neutral messages.
 *
 * <p>Responsibilities: calibration ({@link org.agentmemory.compaction.control.Calibration}: the clock is a
 * parameter, a degenerate sample returns the same state instance); model windows ({@link org.agentmemory.compaction.control.ModelWindows}); tool
 * activity lines, RAW and PRUNED suffixes and prune policies
 * ({@link org.agentmemory.compaction.control.ToolActivityLines},
 * {@link org.agentmemory.compaction.control.ToolActivitySuffix},
 * {@link org.agentmemory.compaction.control.PrunePolicies}); the walk
 * ({@link org.agentmemory.compaction.control.Compactor}); rendering
 * ({@link org.agentmemory.compaction.control.HistoryRenderer}); the never-over-budget entry point
 * ({@link org.agentmemory.compaction.control.ContextWindowFitter}); and the pure parts of Stage 2 summaries (issue 35
 * item 4): the extractive summarizer ({@link org.agentmemory.compaction.control.ExtractiveSummarizer}), the summary
 * text's bounds and block ({@link org.agentmemory.compaction.control.SummaryText}) and the model's prompt
 * ({@link org.agentmemory.compaction.control.SummaryPrompt}).
 *
 * <p>Decisions:
 * <ul>
 *   <li>Everything here is pure: no I/O, no container types, no mutation of inputs; the same inputs give
 *       equal results. Omissions are returned for the caller to flush before rendering (spec §5.4).
 *   <li>Lengths and slices are in code points; numbers are formatted without the default locale.
 *   <li>Fixed reference bugs: notice attribute values are XML-escaped (spec §13 #14); the boundary is
 *       located in stored order, so forcing does not stop when the boundary turn is not a kept candidate
 *       (spec §13 #15, see {@link org.agentmemory.compaction.control.Compactor}).
 *   <li>Deviations for providers: the renderer never emits a blank message, including a blank user text
 *       (see {@link org.agentmemory.compaction.control.HistoryRenderer}); the PRUNED recovery hint follows
 *       the notices actually emitted, not a substring test.
 *   <li>The walk honours the spec; the fitter adds the guarantee the spec lacks: the rendered tokens never
 *       exceed the history budget.
 * </ul>
 */
@Pure
package org.agentmemory.compaction.control;

import org.agentmemory.platform.Pure;
