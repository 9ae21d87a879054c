/**
 * Episodic memory logic without container types (spec §10, §9.3–§9.4 where they touch episodes): importance
 * (automatic, scorers, half-even conversion), reflection (the heuristic table, the model prompt, the answer
 * parsing ladder, the model reflector with heuristic fallback, the OpenAI-compatible request and response
 * JSON), assembly of the episode to store, the inputs of the convenience recorders (tool call, crew run,
 * answered question, explicit lesson), the pre-ask and toolkit texts, and the NFC text form used for
 * indexing and queries.
 *
 * <p>Decisions:
 * <ul>
 * <li>Reflection never fails a recording: {@link org.agentmemory.episodic.control.ModelReflector} falls back
 * to {@link org.agentmemory.episodic.control.HeuristicReflector} on any failure, and every lesson carries its
 * source, so {@code Episode.isLessonBearing()} can ignore generic heuristic success lessons (spec §13 #7).</li>
 * <li>Explicit lessons are part of the input and stored (spec §13 #2); answered questions really become
 * episodes (spec §13 #1).</li>
 * <li>Where the reference was unordered or Python-specific, the order and arithmetic are fixed: error types
 * in the order timeout, rate_limit, permission, connection, validation; rounding half-even (spec §13 #13).</li>
 * <li>Texts and slices count Unicode code points; nothing depends on the default locale or zone.</li>
 * <li>Transport is not here: the session bean (or a CDI bean with Fault Tolerance) owns the HTTP call and
 * passes it in as a {@link org.agentmemory.episodic.control.ChatCompletion}.</li>
 * </ul>
 */
package org.agentmemory.episodic.control;
