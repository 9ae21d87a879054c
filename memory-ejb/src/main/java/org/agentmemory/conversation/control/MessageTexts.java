package org.agentmemory.conversation.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.platform.text.TextNormalization;

/**
 * What of a turn becomes searchable: its user message and its assistant response, each with an external id,
 * an author and an attachment caption taken from the turn's metadata by these documented keys:
 *
 * <table>
 * <caption>Turn metadata keys read for each message</caption>
 * <tr><th>message</th><th>external id</th><th>author</th><th>attachment caption</th></tr>
 * <tr><td>user message</td><td>{@code dia_id}</td><td>{@code speaker}</td><td>{@code image_caption}</td></tr>
 * <tr><td>assistant response</td><td>{@code reply_dia_id}</td><td>{@code reply_speaker}</td><td>{@code reply_image_caption}</td></tr>
 * </table>
 *
 * (the keys of the LoCoMo import format). The indexed and embedded text is
 * {@code "{author}: {text}"} (or the text alone) plus {@code " [image: {caption}]"} when there is a caption, in
 * NFC: who said something and what they showed is part of what a later question asks about. A blank message is
 * not indexed.
 *
 * <p>A message is indexed by its first {@value #MAX_INDEXED_CODE_POINTS} code points (a caption by its first
 * {@value #MAX_CAPTION_CODE_POINTS}); the conversation keeps it whole. The index rows are rewritten when their
 * vector arrives, and multi-megabyte rows rewritten fifty at a time ran the embedded H2 database out of memory;
 * the embedding model reads no more than that anyway.
 */
public final class MessageTexts {

    /** Longest message text indexed, in code points (the embedding model's own bound). */
    public static final int MAX_INDEXED_CODE_POINTS = 16_384;

    /** Longest attachment caption indexed, in code points. */
    public static final int MAX_CAPTION_CODE_POINTS = 2_048;

    /** Metadata key of the user message's external id. */
    public static final String USER_ID_KEY = "dia_id";
    /** Metadata key of the assistant response's external id. */
    public static final String ASSISTANT_ID_KEY = "reply_dia_id";

    /**
     * One message to index.
     *
     * @param role       {@link TurnMessage#USER} or {@link TurnMessage#ASSISTANT}
     * @param externalId the external id or {@code null}
     * @param author     the author or {@code null}
     * @param content    the message text
     * @param searchText the text to index and embed
     */
    public record Message(String role, String externalId, String author, String content, String searchText) {}

    private MessageTexts() {}

    /**
     * @param userMessage       the user message (may be blank)
     * @param assistantResponse the response (may be blank)
     * @param metadata          the turn's metadata ({@code null} for none)
     * @return the non-blank messages, user first
     */
    public static List<Message> of(String userMessage, String assistantResponse, Map<String, Object> metadata) {
        Map<String, Object> meta = metadata == null ? Map.of() : metadata;
        List<Message> messages = new ArrayList<>(2);
        add(
                messages,
                TurnMessage.USER,
                userMessage,
                text(meta.get(USER_ID_KEY)),
                text(meta.get("speaker")),
                text(meta.get("image_caption")));
        add(
                messages,
                TurnMessage.ASSISTANT,
                assistantResponse,
                text(meta.get(ASSISTANT_ID_KEY)),
                text(meta.get("reply_speaker")),
                text(meta.get("reply_image_caption")));
        return messages;
    }

    private static void add(
            List<Message> messages, String role, String content, String externalId, String author, String caption) {
        if (content == null || content.isBlank()) {
            return;
        }
        String indexed = org.agentmemory.platform.text.CodePoints.head(content, MAX_INDEXED_CODE_POINTS);
        StringBuilder search = new StringBuilder();
        if (author != null && !author.isBlank()) {
            search.append(cap(author.strip())).append(": ");
        }
        search.append(indexed);
        if (caption != null && !caption.isBlank()) {
            search.append(" [image: ")
                    .append(org.agentmemory.platform.text.CodePoints.head(caption.strip(), MAX_CAPTION_CODE_POINTS))
                    .append(']');
        }
        messages.add(
                new Message(role, cap(externalId), cap(author), indexed, TextNormalization.nfc(search.toString())));
    }

    /**
     * Ids and names longer than their column keep their first 500 UTF-16 units, never splitting a surrogate pair:
     * that is at most 500 code points (PostgreSQL counts those) and at most 500 characters as H2 counts them
     * (UTF-16 units; 300 emoji are 600 of them and overflowed the 512-character column).
     */
    static String cap(String value) {
        if (value == null || value.length() <= 500) {
            return value;
        }
        return value.substring(0, Character.isHighSurrogate(value.charAt(499)) ? 499 : 500);
    }

    private static String text(Object value) {
        return value == null ? null : value.toString();
    }
}
