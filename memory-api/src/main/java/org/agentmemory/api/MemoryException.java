package org.agentmemory.api;

import jakarta.ejb.ApplicationException;

/**
 * Base of every expected business failure of the memory service.
 *
 * <p>Checked and declared on every business method, so local, remote and REST callers handle the same
 * cases. The container rolls the current transaction back and passes the exception to the caller as is
 * (it is an {@link ApplicationException}, inherited by every subclass). Messages name the offending
 * identifier and say how to fix the call.
 */
@ApplicationException(rollback = true)
public abstract class MemoryException extends Exception {

    private static final long serialVersionUID = 1L;

    protected MemoryException(String message) {
        super(message);
    }

    /**
     * A short, stable, kebab-case name of the failure kind (e.g. {@code history-not-found}); REST problem
     * bodies use it as the last segment of their {@code type} URI.
     *
     * @return the kind, never {@code null}
     */
    public abstract String kind();
}
