/**
 * Answer memory (the reference's {@code AnswerMemory}): question/answer pairs of an agent by turn id.
 *
 * <p>Decision: persisted in the database instead of a process-local map, so every server of a cluster and
 * every restart sees the same answers; storing a turn again replaces it.
 */
package org.agentmemory.answer.boundary;
