/**
 * The stored episode and its search mapping.
 *
 * <p>Decisions: the database row is the truth and carries the embedding (bytes), so the Hibernate Search
 * index can always be rebuilt from the database without the model; enumerations are stored as their lower-case
 * values; ids are sequence-generated with a public UUID beside them (portable to EclipseLink).
 */
package org.agentmemory.episodic.entity;
