/**
 * REST interface of conversation recall ({@code /api/v1/messages/search}) and of the search index maintenance
 * ({@code /api/v1/admin/reindex}).
 *
 * <p>Decisions: thin resources over the {@code ConversationRecall} bean; the scope is in the body (ids may
 * contain '/'); the reindex is asynchronous with a status to poll.
 */
package org.agentmemory.recall;
