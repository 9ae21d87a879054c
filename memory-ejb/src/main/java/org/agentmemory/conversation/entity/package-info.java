/**
 * What a conversation is stored as: the conversation row (key, metadata, compaction state, version), its turns
 * (user message, assistant response, token counts), their tool invocations, and the searchable messages of each
 * turn ({@code TurnMessage}).
 *
 * <p>Decisions: order comes from the per-conversation sequence, never from timestamps. Each user message and each
 * assistant response is its own indexed row, written in the transaction that stores its turn, rather than an
 * {@code @IndexedEmbedded} view of the turn: a hit is one message (with its role and external id), the turn entity
 * stays immutable and unindexed, and a mass reindex of messages reads one table. The message's embedding is stored
 * with it (bytes), so reindexing needs no model. Deleting a conversation cascades in the database; the writer purges
 * the index entries. The messages belong to this component because it writes them; conversation recall only reads
 * and embeds them.
 */
package org.agentmemory.conversation.entity;
