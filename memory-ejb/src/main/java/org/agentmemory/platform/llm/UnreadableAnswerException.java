package org.agentmemory.platform.llm;

/**
 * A chat model's answer could not be used: the chat-completions response had no usable content, or the content did
 * not follow the JSON contract its caller asked for. The message says what was expected and shows the start of what
 * was received. Fault-tolerance policies do not retry it and do not count it as a circuit failure: the endpoint
 * answered, only this answer was bad.
 */
public class UnreadableAnswerException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Longest excerpt of an answer in a message, code points. */
    public static final int EXCERPT = 200;

    /**
     * @param message what was wrong, with an excerpt of the input
     */
    public UnreadableAnswerException(String message) {
        super(message);
    }

    /**
     * @param message what was wrong, with an excerpt of the input
     * @param cause   the underlying parse error
     */
    public UnreadableAnswerException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * @param content an answer
     * @return its start on one line, at most {@value #EXCERPT} code points and an ellipsis
     */
    public static String excerpt(String content) {
        String oneLine = String.valueOf(content).strip().replaceAll("\\s+", " ");
        return oneLine.codePointCount(0, oneLine.length()) <= EXCERPT
                ? oneLine
                : oneLine.substring(0, oneLine.offsetByCodePoints(0, EXCERPT)) + "…";
    }
}
