package org.agentmemory.security;

/**
 * A bearer token that does not verify. The reason is logged; the caller only learns "invalid token".
 */
public class InvalidTokenException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * @param reason why the token was refused (for the server log only)
     * @param cause  the library's refusal, or {@code null}
     */
    public InvalidTokenException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
