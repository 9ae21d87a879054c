package org.agentmemory.platform.embedding;

/**
 * A text in which the embedding model finds nothing to read: blank, or only characters its tokenizer drops
 * (U+FFFD, the replacement of undecodable bytes; control and format characters; lone combining marks, which
 * the uncased models strip). Recall answers such a query's vector leg with no hits instead of failing.
 */
public class UnreadableTextException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what was unreadable
     * @param cause   the model library's refusal, or {@code null}
     */
    public UnreadableTextException(String message, Throwable cause) {
        super(message, cause);
    }
}
