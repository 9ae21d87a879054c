package org.agentmemory.episodic.control;

import org.agentmemory.platform.llm.UnreadableAnswerException;

/**
 * A model's answer could not be read as a reflection . The message says what was expected and shows the
 * start of what was received. {@link ModelReflector} catches it and falls back to the heuristic.
 */
public class ReflectionParseException extends UnreadableAnswerException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what was wrong, with an excerpt of the input
     */
    public ReflectionParseException(String message) {
        super(message);
    }

    /**
     * @param message what was wrong, with an excerpt of the input
     * @param cause   the underlying parse error
     */
    public ReflectionParseException(String message, Throwable cause) {
        super(message, cause);
    }
}
