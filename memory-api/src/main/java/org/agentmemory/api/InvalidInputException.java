package org.agentmemory.api;

/**
 * An argument breaks a documented rule; nothing was written. REST answers 400 with the field and rule.
 *
 * <p>Example: field {@code userId}, rule {@code max-length}, message
 * {@code "userId is 300 characters long; the limit is 128 characters (Unicode code points)"}.
 */
public class InvalidInputException extends MemoryException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final String rule;

    /**
     * @param field   the offending field as the caller named it (JSON property path such as
     *                {@code toolInvocations[1].toolName}); never {@code null}
     * @param rule    a short kebab-case name of the broken rule (e.g. {@code required}, {@code max-length},
     *                {@code control-character}); never {@code null}
     * @param message the full message: what is wrong, the bad value or its size, the valid values and the fix
     */
    public InvalidInputException(String field, String rule, String message) {
        super(message);
        this.field = field;
        this.rule = rule;
    }

    /** @return the offending field path */
    public String field() {
        return field;
    }

    /** @return the broken rule's short name */
    public String rule() {
        return rule;
    }

    @Override
    public String kind() {
        return "invalid-input";
    }
}
