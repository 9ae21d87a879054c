package org.agentmemory.api.recall;

import java.io.Serializable;
import java.time.Instant;

/**
 * One recalled conversation message.
 *
 * @param conversationId the conversation
 * @param userId         the conversation's user
 * @param sessionId      the conversation's session
 * @param turnId         the turn's id
 * @param sequence       the turn's sequence number in its conversation
 * @param role           {@code user} (the user message) or {@code assistant} (the response)
 * @param externalId     the message's external id from the turn's metadata ({@code dia_id} for the user message,
 *                       {@code reply_dia_id} for the response), or {@code null}
 * @param author         the message's author from the metadata ({@code speaker} / {@code reply_speaker}), or
 *                       {@code null}
 * @param content        the message text as stored
 * @param occurredAt     the turn's time (UTC)
 * @param score          relevance, higher is better: cosine similarity in vector mode, BM25 in full-text mode,
 *                       the fused score in hybrid mode
 */
public record MessageHit(long conversationId, String userId, String sessionId, String turnId, long sequence,
        String role, String externalId, String author, String content, Instant occurredAt, double score)
        implements Serializable {
}
