package org.agentmemory.api.brain;

import java.time.Instant;
import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.conversation.Page;

/**
 * Brain pages of an agent and of its organisation (issue 33 item 1; spec §12.3, §12.4).
 *
 * <p>A write merges its statements into the page with the same title and category (the page id of spec §12.3)
 * instead of replacing the body (spec §13 #9): a statement said again gets the new evidence, a contradicting one
 * (its negation) supersedes the older statement, which stays readable as history ({@link #getPage} with
 * {@code asOf}).
 */
public interface BrainMemoryOperations {

    /** Default budget of {@link #knowledge}, tokens (spec §12.4). */
    int DEFAULT_KNOWLEDGE_TOKENS = 600;

    /** Largest {@code topK}. */
    int MAX_TOP_K = 100;

    /**
     * Writes knowledge into a page (the seed's {@code wiki_remember}).
     *
     * @param brain the brain
     * @param write the knowledge
     * @return what the write did
     * @throws InvalidInputException when the agent id, body, category, confidence or an evidence reference breaks a
     *                               rule (the problem names the field)
     */
    @RequiresRole(RequiresRole.WRITER)
    PageWriteResult remember(BrainRef brain, PageWrite write) throws InvalidInputException;

    /**
     * @param brain  the brain
     * @param pageId the page
     * @param asOf   a time to show the page as it stood then, or {@code null} for now
     * @return the page
     * @throws NotFoundException     when the brain has no such page (or had none at {@code asOf})
     * @throws InvalidInputException when the agent id breaks the id rules
     */
    @RequiresRole(RequiresRole.READER)
    BrainPage getPage(BrainRef brain, String pageId, Instant asOf) throws NotFoundException, InvalidInputException;

    /**
     * @param brain  the brain
     * @param limit  1 to 1,000
     * @param cursor {@code nextCursor} of the previous page, or {@code null}
     * @return pages, newest first (their current statements)
     * @throws InvalidInputException when the limit, cursor or agent id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    Page<BrainPage> listPages(BrainRef brain, int limit, String cursor) throws InvalidInputException;

    /**
     * Hybrid search: a full-text leg over titles, summaries and bodies (English analysis; words OR-ed, so no operator
     * can be injected) and a vector leg over the pages' embeddings (cosine at least 0.35), fused by reciprocal rank
     * (k = 60; the hit's score is the fused score). Pages of category {@code archive} are left out.
     *
     * @param brain the brain
     * @param query the query; blank gives no hits
     * @param topK  1 to {@value #MAX_TOP_K}
     * @return hits, best first
     * @throws InvalidInputException when {@code topK} or the agent id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    List<BrainSearchHit> search(BrainRef brain, String query, int topK) throws InvalidInputException;

    /**
     * The brain section of a context: {@link #search} packed as stub lines into a token budget (spec §12.4), counted
     * with the service's tokenizer. Never throws for a search failure: an empty result or a failure is {@code ""}.
     *
     * @param brain     the brain
     * @param query     the query
     * @param topK      1 to {@value #MAX_TOP_K} (the reference's default 5)
     * @param maxTokens the budget, ≥ 1 (default {@value #DEFAULT_KNOWLEDGE_TOKENS})
     * @return the stub lines joined by LF, or {@code ""}
     * @throws InvalidInputException when {@code topK}, {@code maxTokens} or the agent id breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    String knowledge(BrainRef brain, String query, int topK, int maxTokens) throws InvalidInputException;
}
