package org.agentmemory.api.recall;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
@Schema(description = "One recalled conversation message.")
public record MessageHit(
        @Schema(description = "The conversation.") long conversationId,
        @Schema(description = "The conversation's user.") String userId,
        @Schema(description = "The conversation's session.") String sessionId,
        @Schema(description = "The turn's id.") String turnId,

        @Schema(description = "The turn's sequence number in its conversation.")
        long sequence,

        @Schema(description = "user (the turn's user message) or assistant (its response).")
        String role,

        @Schema(
                description = "The message's external id from the turn's metadata (dia_id for the user message,"
                        + " reply_dia_id for the response), or null.")
        String externalId,

        @Schema(description = "The message's author from the turn's metadata (speaker / reply_speaker), or null.")
        String author,

        @Schema(description = "The message text as stored.") String content,

        @Schema(description = "The turn's time, ISO-8601 UTC.")
        Instant occurredAt,

        @Schema(
                description = "Relevance, higher is better: cosine similarity in vector mode, BM25 in full_text"
                        + " mode, the fused score in hybrid mode.")
        double score)
        implements Serializable {}
