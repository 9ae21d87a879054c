/**
 * Episodic memory contract (spec §10): episodes an agent records about what it faced, did and learned,
 * the namespace that scopes them, what a caller supplies to record one, recall results and reflection
 * results.
 *
 * <p>Decisions: enums are stored and sent as their lower-case {@code value()} (the reference's strings);
 * the transfer {@link org.agentmemory.api.episodic.Episode} carries no embedding vector; namespace filters
 * use the record component names; a {@link org.agentmemory.api.episodic.LessonSource} records where a lesson
 * came from, and {@link org.agentmemory.api.episodic.Episode#isLessonBearing()} uses it so generic heuristic
 * success lessons no longer make every episode dream-eligible (spec §13 #7); an explicit lesson in
 * {@link org.agentmemory.api.episodic.EpisodeInput} is stored as such (spec §13 #2). Lengths are Unicode code
 * points; times are UTC instants. Records check their invariants in the constructor and throw
 * {@link java.lang.IllegalArgumentException} (or {@link java.lang.NullPointerException} for a missing
 * required service-set field) naming the field.
 */
package org.agentmemory.api.episodic;
