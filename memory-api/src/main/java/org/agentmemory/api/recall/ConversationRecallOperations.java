package org.agentmemory.api.recall;

import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.RequiresRole;

/**
 * Conversation recall: full-text, vector and hybrid search over the stored messages of a user's
 * conversations, and the mass reindex of the search indexes. Messages become searchable in
 * the transaction that stores their turn.
 */
public interface ConversationRecallOperations {

    /**
     * @param request the query and scope
     * @return the hits, best first, at most {@code topK}
     * @throws InvalidInputException when an argument breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    List<MessageHit> searchMessages(MessageRecallRequest request) throws InvalidInputException;

    /**
     * Starts rebuilding every search index (episodes and messages) from the database in the background; the
     * embeddings come from the rows, no model runs. Searches keep working while it runs (results may be
     * incomplete until it is done). Returns at once; a run already in progress is not restarted.
     *
     * @return the status right after starting
     */
    @RequiresRole(RequiresRole.OPERATOR)
    ReindexStatus startReindex();

    /**
     * Starts rebuilding one tenant's documents in every search index, in the background, as {@link #startReindex()}
     * does for every tenant: each of the tenant's rows is indexed again, then documents whose rows are gone are
     * purged; other tenants' documents are left as they are (issue 32 item 3).
     *
     * @param tenantId the tenant; never {@code null}
     * @return the status right after starting
     * @throws InvalidInputException when the tenant id is blank or longer than 64 characters
     */
    @RequiresRole(RequiresRole.ADMIN)
    ReindexStatus startReindex(String tenantId) throws InvalidInputException;

    /**
     * Starts merging every search index into one segment in the background (Lucene force-merge). Many small
     * segments pile up under a steady stream of writes, and k-NN search walks one HNSW graph per segment
     * (docs/decisions/0007-index-merges.md). Run it after a bulk
     * import; a reindex ends with it anyway. Searches and writes keep working while it runs. Its progress is
     * {@link #reindexStatus()} (a merge and a reindex never run at the same time).
     *
     * @return the status right after starting (already running: the running operation's status)
     */
    @RequiresRole(RequiresRole.OPERATOR)
    ReindexStatus startMerge();

    /** @return the progress of the current or last reindex or merge */
    @RequiresRole(RequiresRole.ADMIN)
    ReindexStatus reindexStatus();

    /**
     * How many of a tenant's conversation messages still wait for their vector. With the default
     * {@code memory.recall.embedding=background}, messages are embedded about a second after they are written;
     * full-text recall finds them at once, vector and hybrid recall once this count has reached them. A message
     * counts as pending until its vector is in the search index, not only in the database, so a client that
     * waits for 0 then searches sees every vector.
     *
     * @param tenantId       the tenant
     * @param userId         only this user's messages, or {@code null}
     * @param conversationId only this conversation's messages, or {@code null}
     * @return messages without a vector yet (the newest are embedded first)
     * @throws org.agentmemory.api.InvalidInputException when an id breaks a rule
     */
    @RequiresRole(RequiresRole.ADMIN)
    long pendingEmbeddings(String tenantId, String userId, Long conversationId)
            throws org.agentmemory.api.InvalidInputException;
}
