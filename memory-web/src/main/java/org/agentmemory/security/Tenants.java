package org.agentmemory.security;

import jakarta.enterprise.context.RequestScoped;

/**
 * The caller of the current request, as {@link AuthenticationFilter} verified it: every read and write of the
 * request is scoped to its tenant, which comes from the caller's token and never from the request's body or query.
 */
@RequestScoped
public class Tenants {

    private Caller caller;

    /**
     * Called by {@link AuthenticationFilter} once the request is authenticated and admitted.
     *
     * @param verified the caller
     */
    public void authenticated(Caller verified) {
        this.caller = verified;
    }

    /**
     * @return the tenant of the current request
     * @throws IllegalStateException when the request was not authenticated (a resource reached without the filter:
     *                               a defect, refused rather than answered for some default tenant)
     */
    public String current() {
        if (caller == null) {
            throw new IllegalStateException("The request was not authenticated; no tenant to scope it to.");
        }
        return caller.tenant();
    }

    /** @return the verified caller, or {@code null} before authentication */
    public Caller caller() {
        return caller;
    }
}
