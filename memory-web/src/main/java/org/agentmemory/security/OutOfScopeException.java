package org.agentmemory.security;

/**
 * A request names a user or agent outside its token's scope, or asks for an operation that cannot be narrowed to
 * the token's user or agent. REST answers 403 with a problem naming the field ({@link OutOfScopeMapper}).
 */
public class OutOfScopeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;

    /**
     * @param field  the field that names the other user or agent, or {@code null} for a whole operation
     * @param detail what was refused and why
     */
    public OutOfScopeException(String field, String detail) {
        super(detail);
        this.field = field;
    }

    /** @return the offending field, or {@code null} */
    public String field() {
        return field;
    }
}
