package org.agentmemory.api.pii;

import java.util.Locale;
import org.agentmemory.api.InvalidInputException;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Who wrote a message whose detections are remembered (seed 002 {@code MessageRole}). */
@Schema(description = "Who wrote a message: user, assistant, system or tool (JSON is lower case).")
public enum MessageRole {
    /** The end user. */
    USER,
    /** The model. */
    ASSISTANT,
    /** A system prompt. */
    SYSTEM,
    /** A tool's output. */
    TOOL;

    /**
     * @param field the request field, for the error
     * @param value the role's name in any case, or {@code null}
     * @return the role; {@link #USER} when {@code value} is {@code null}
     * @throws InvalidInputException when {@code value} names no role
     */
    public static MessageRole parse(String field, String value) throws InvalidInputException {
        if (value == null) {
            return USER;
        }
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(
                    field, "role", field + " is '" + value + "'; it must be one of user, assistant, system, tool.");
        }
    }
}
