/**
 * Conversation recall's session beans: message search in three modes and the background mass reindex.
 *
 * <p>Decisions: the scope is a filter inside each search leg; hits come from index projections (no database
 * read per query); hybrid fusion is the shared, configurable {@code Fusion}; the mass reindex is one run at a
 * time per server and reports progress from Hibernate Search's monitor.
 */
package org.agentmemory.recall.boundary;
