/**
 * Searchable conversation messages.
 *
 * <p>Decisions: each user message and each assistant response is its own indexed row ({@code TurnMessage}),
 * written in the transaction that stores its turn, rather than an {@code @IndexedEmbedded} view of the turn:
 * a hit is one message (with its role and external id), the turn entity stays immutable and unindexed, and a
 * mass reindex of messages reads one table. The message's embedding is stored with it (bytes), so reindexing
 * needs no model. Deleting a conversation cascades in the database; the writer purges the index entries.
 */
package org.agentmemory.recall.entity;
