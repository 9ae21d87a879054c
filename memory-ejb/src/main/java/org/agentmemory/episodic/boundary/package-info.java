/**
 * Episodic memory's session beans: recording (reflection and embedding before a short write transaction),
 * recall, warnings and context blocks, administration, the agent tools, and the expiry timer.
 *
 * <p>Decisions: slow work (a model call, embedding) never runs inside a database transaction; the namespace
 * filter is applied inside every search leg and re-checked on the loaded rows; recent failures for warnings are
 * scoped to the user when the namespace has one (spec §13 #6); compaction and expiry really delete rows and
 * their index documents (spec §13 #3).
 */
package org.agentmemory.episodic.boundary;
